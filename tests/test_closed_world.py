"""Safe means closed-world (issue 45), through the real CLI on the runnable programs of
``tests/fixtures/evidence/closed_world``: each holds diagnostics whose evidence the program
reaches around (a subclass through a torch op, an attribute written elsewhere, a global
rebound by name, a closure, ``for``/``else``, ``vmap``, a lazy module, an accumulator that is a
caller's tensor or a view, a ``def`` that rebinds a name in a long file). Each program prints
the same before and after ``tensorcopy fix``, which leaves it byte for byte: every fix there is
unsafe. A value made in the scope that uses it still gets its safe fix."""
import json
import os
import shutil
import sys

import pytest

from .conftest import FIXTURES, run, tensorcopy

pytest.importorskip("torch")
pytest.importorskip("numpy")

HERE = os.path.join(FIXTURES, "evidence", "closed_world")
PROGRAMS = sorted(f for f in os.listdir(HERE) if f.endswith(".py"))


def _run(path):
    res = run([sys.executable, str(path)], cwd=path.parent)
    assert res.returncode == 0, res.stderr
    return res.stdout


@pytest.mark.parametrize("name", PROGRAMS)
def test_open_world_evidence_gets_no_safe_fix(tmp_path, name):
    path = tmp_path / name
    shutil.copy(os.path.join(HERE, name), path)
    original = path.read_text()
    before = _run(path)
    res = tensorcopy("fix", "--no-cache", str(path), cwd=tmp_path)
    assert res.returncode in (0, 1), res.stderr
    assert path.read_text() == original
    assert _run(path) == before
    # the JSON of ``check`` (the lint view) offers no safe fix either: one answer
    res = tensorcopy("check", "--no-cache", "--output-format", "json", str(path), cwd=tmp_path)
    found = json.loads(res.stdout)
    assert not [d for d in found if d["fix"] and d["fix"]["applicability"] == "safe"], found
    expected = original.count("# expect:")
    assert len({(d["location"]["row"]) for d in found}) == expected, found
    if expected:  # still a diagnostic with an unsafe fix (or none), never silence
        assert any(d["fix"] for d in found) or name == "subclass_ops.py", found


def test_made_here_is_still_safe(tmp_path):
    """The positive side: a factory's result, an op on it and a constant, bound to a local of
    the scope that reads it, is closed-world evidence."""
    path = tmp_path / "made.py"
    path.write_text(
        "import torch\n\n\ndef f(n):\n    t = torch.zeros(n) + 1\n    u = t[1:] * 2\n"
        "    return torch.tensor(u), u.clone().detach()\n\n\nprint(f(3))\n")
    before = _run(path)
    res = tensorcopy("fix", "--no-cache", str(path), cwd=tmp_path)
    assert res.returncode in (0, 1), res.stderr
    fixed = path.read_text()
    assert "return u.detach().clone(), u.detach().clone()" in fixed, fixed
    assert _run(path) == before


@pytest.mark.parametrize("use, why", [
    ("torch.flip(p, [0])", "an op on a parameter (may be a subclass)"),
    ("torch.zeros(3) + p", "an operand nothing is known of"),
    ("torch.zeros(3)[p]", "an index nothing is known of"),
])
def test_an_open_operand_opens_the_result(tmp_path, use, why):
    path = tmp_path / "ops.py"
    path.write_text(f"import torch\n\n\ndef f(p):\n    u = {use}\n    return torch.tensor(u)\n")
    res = tensorcopy("check", "--no-cache", "--output-format", "json", str(path), cwd=tmp_path)
    (d,) = json.loads(res.stdout)
    assert d["code"] == "TEN201" and d["fix"]["applicability"] == "unsafe", (why, d)
