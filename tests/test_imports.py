"""Nothing expensive at import: flake8 imports every plugin on every run (an editor: on every
save), so importing the plugin must not import the engine; it loads only when a file passes the
text and ``ast`` pre-filters. libcst is never imported to lint or fix: the engine walks a tree
built from ``ast`` (its import alone costs more than an editor run may)."""
import json
import subprocess
import sys

HEAVY = ("libcst", "flake8_tensorcopy.engine", "flake8_tensorcopy.semantic.infer",
         "flake8_tensorcopy.rules")

SCRIPT = r"""
import json, sys
import flake8_tensorcopy.plugin
seen = {"import": sorted(m for m in sys.modules if m.split(".")[0] == "libcst" or m in HEAVY)}
from flake8.main.application import Application
for name, path in [("no_candidate", sys.argv[1]), ("candidate", sys.argv[2])]:
    app = Application()
    app.run(["--jobs", "1", "--select", "TEN", path])
    seen[name] = sorted(m for m in sys.modules if m.split(".")[0] == "libcst" or m in HEAVY)
    seen[name + "_results"] = app.result_count
print(json.dumps(seen))
"""


def test_plugin_import_and_a_file_without_candidates_load_no_engine_and_none_loads_libcst(tmp_path):
    plain = tmp_path / "plain.py"
    # text that passes the regex (``.data``, ``torch.tensor(``) but not the ast scan
    plain.write_text("import torch\n\nx = torch.tensor([1, 2])\n\n\nclass D:\n"
                     "    def f(self):\n        return self.data\n")
    flagged = tmp_path / "flagged.py"
    flagged.write_text("import torch\n\n\ndef f():\n    t = torch.ones(3)\n    return torch.tensor(t)\n")
    res = subprocess.run([sys.executable, "-c", f"HEAVY = {HEAVY!r}\n" + SCRIPT, str(plain),
                          str(flagged)], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    seen = json.loads(res.stdout.strip().splitlines()[-1])
    assert seen["import"] == []
    assert seen["no_candidate"] == [] and seen["no_candidate_results"] == 0
    # the same process does load the engine for a file that needs it (the check can fail), and
    # linting that file, with a diagnostic, loads no libcst
    assert "flake8_tensorcopy.engine" in seen["candidate"] and "flake8_tensorcopy.rules" in \
        seen["candidate"]
    assert not [m for m in seen["candidate"] if m.split(".")[0] == "libcst"], seen["candidate"]
    assert seen["candidate_results"] == 1


def test_check_and_fix_import_no_libcst(tmp_path):
    """``tensorcopy check`` and ``fix`` (one process: ``-j 1``) on a file with a diagnostic and a
    fix: ``-X importtime`` lists every module imported, and libcst is not among them."""
    flagged = tmp_path / "flagged.py"
    flagged.write_text("import torch\n\n\ndef f():\n    t = torch.ones(3)\n    return torch.tensor(t)\n")
    for args in (["check", "--no-cache", "-j", "1"], ["fix", "--no-cache", "-j", "1", "--diff"]):
        res = subprocess.run([sys.executable, "-X", "importtime", "-m", "flake8_tensorcopy", *args,
                              str(flagged)], capture_output=True, text=True, timeout=120)
        assert "TEN201" in res.stdout or "t.detach().clone()" in res.stdout, (args, res.stdout)
        imported = [line.rsplit("|", 1)[-1].strip() for line in res.stderr.splitlines()
                    if line.startswith("import time:")]
        assert "flake8_tensorcopy.engine" in imported  # the check can fail
        assert not [m for m in imported if m.split(".")[0] == "libcst"], args
