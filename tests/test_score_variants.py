"""``benchmarks/precision/score_variants.py`` scores a folder of marked programs through the real
CLI: found, missed and false alarms per code, ``# either`` lines left out of the scores."""
import os
import subprocess
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(os.path.dirname(HERE), "benchmarks", "precision", "score_variants.py")

PROGRAM = textwrap.dedent("""\
    import torch
    model = torch.nn.Linear(3, 1)
    total = 0.0
    kept = 0.0
    other = 0.0
    for step in range(3):
        loss = model(torch.ones(2, 3)).sum()
        loss.backward()
        total += loss  # expect: TEN501
        kept += loss.item()  # ok
        other += loss  # either
    x = torch.arange(10.0).reshape(2, 5)
    x[:, 1:] = x[:, :-1]
    """)


def _score(root, *args):
    proc = subprocess.run([sys.executable, SCRIPT, str(root), *args], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_found_missed_false_alarms_and_either(tmp_path):
    root = tmp_path / "set"
    root.mkdir()
    (root / "loop.py").write_text(PROGRAM)
    out = _score(root, "--codes", "TEN501,TEN403")
    assert "1 labelled negatives" in out
    # the ``# either`` line is reported but neither found nor a false alarm
    assert "TEN501: expected 1, found 1, missed 0, false alarms 0; recall 1.000, precision 1.000" \
        in out, out
    # TEN403 has no marker: its report is a false alarm
    assert "TEN403: expected 0, found 0, missed 0, false alarms 1; recall -, precision 0.000" \
        in out, out
    assert "false alarm: loop.py:13" in out


def test_a_missed_site_is_listed(tmp_path):
    root = tmp_path / "set"
    root.mkdir()
    (root / "quiet.py").write_text("import torch\nx = torch.ones(3)  # expect: TEN501\n")
    out = _score(root)
    assert "TEN501: expected 1, found 0, missed 1" in out and "missed: quiet.py:2" in out, out


def test_not_a_folder(tmp_path):
    proc = subprocess.run([sys.executable, SCRIPT, str(tmp_path / "absent")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "is not a folder" in proc.stderr
