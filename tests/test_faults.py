"""Fault injection (issue 22): killed runs, files written while they are fixed, odd files,
a corrupted results cache. Every test drives the real CLI in a subprocess, as users run it."""
import glob
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from .conftest import run, tensorcopy

SRC = "import torch\n\n\ndef f(t: torch.Tensor):\n    return torch.tensor(t)\n"
BAD = "import torch\nt = torch.ones(2)\nc = torch.tensor(t)\n"
FIXED = "import torch\nt = torch.ones(2)\nc = t.detach().clone()\n"
MESSAGE = "TEN201 `torch.tensor(t)`"


# ------------------------------------------------------------------ item 8: a corrupted cache
def _entries(project):
    return sorted(glob.glob(str(project / ".tensorcopy_cache" / "*" / "*.json")))


def _check(project):
    return tensorcopy("check", "--output-format", "concise", ".", cwd=str(project))


def _edit(field, value):
    def change(entry):
        target = entry["result"] if field in ("cells", "syntax_error", "diagnostics") else entry
        target[field] = value
        return json.dumps(entry).encode()
    return change


def _edit_diag(i, value):
    def change(entry):
        entry["result"]["diagnostics"][0][i] = value
        return json.dumps(entry).encode()
    return change


CORRUPTIONS = {
    "cells not a list": _edit("cells", 5),
    "cells of ints": _edit("cells", [1, 2]),
    "cells of strings": _edit("cells", [["a", "b"]]),
    "diagnostics not a list": _edit("diagnostics", {"a": 1}),
    "syntax_error a list": _edit("syntax_error", [1]),
    "deps of ints": _edit("deps", [1, 2]),
    "line a string": _edit_diag(2, "5"),
    "code a number": _edit_diag(0, 201),
    "diagnostic too short": lambda e: json.dumps(
        dict(e, result=dict(e["result"], diagnostics=[["TEN201"]]))).encode(),
    "bad fix safety": _edit_diag(6, ["d", "maybe", []]),
    "bad edit": _edit_diag(6, ["d", "safe", [[1, "x", 3]]]),
    "result missing": lambda e: json.dumps({k: v for k, v in e.items() if k != "result"}).encode(),
    "truncated": lambda e: json.dumps(e).encode()[:len(json.dumps(e)) // 2],
    "nested too deep": lambda e: b"[" * 100000 + b"]" * 100000,
    "not UTF-8": lambda e: b'{"path": "\xff"}',
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_a_malformed_cache_entry_is_one_warning_and_rebuilt(tmp_path, name):
    (tmp_path / "pyproject.toml").write_text("[tool.tensorcopy]\n")
    (tmp_path / "m.py").write_text(SRC)
    (tmp_path / "n.py").write_text(SRC)
    first = _check(tmp_path)
    assert first.returncode == 1 and first.stdout.count(MESSAGE) == 2
    paths = _entries(tmp_path)
    assert len(paths) == 2
    for p in paths:
        with open(p) as fh:
            entry = json.load(fh)
        with open(p, "wb") as fh:
            fh.write(CORRUPTIONS[name](entry))
    res = _check(tmp_path)
    assert "Traceback" not in res.stderr, res.stderr
    assert res.returncode == 1 and res.stdout.count(MESSAGE) == 2, res.stdout + res.stderr
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tensorcopy: warning: ") \
        and "corrupt cache entry" in lines[0], res.stderr
    again = _check(tmp_path)  # rebuilt: served, silently
    assert again.stderr == "" and again.stdout == res.stdout


# ------------------------------------------------------------- item 3: files that are not files
def _timed_tensorcopy(*args, cwd, timeout=60):
    try:
        return run([sys.executable, "-m", "flake8_tensorcopy", *args], cwd=str(cwd),
                   timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"tensorcopy {' '.join(args)} hung")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("command", ["check", "fix"])
def test_a_fifo_named_like_a_module_is_skipped_with_a_warning(tmp_path, command):
    os.mkfifo(tmp_path / "x.py")
    (tmp_path / "m.py").write_text(BAD)
    for named in (["."], ["x.py", "m.py"]):  # found by the walk, and named
        (tmp_path / "m.py").write_text(BAD)
        res = _timed_tensorcopy(command, "--no-cache", *named, cwd=tmp_path)
        assert "x.py: not a regular file (a named pipe); skipped" in res.stderr, res.stderr
        assert res.stderr.startswith("tensorcopy: warning: x.py:")
        if command == "check":
            assert res.returncode == 1 and "m.py:3:5: TEN201" in res.stdout
        else:
            assert res.returncode == 0 and (tmp_path / "m.py").read_text() == FIXED


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_cached_dependency_replaced_by_a_fifo_does_not_block(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.tensorcopy]\n")
    (tmp_path / "x.py").write_text("import torch\n\n\ndef g():\n    return torch.ones(2)\n")
    (tmp_path / "k.py").write_text("import torch\nfrom x import g\n\n\ndef f():\n"
                                   "    t = g()\n    return torch.tensor(t)\n")
    first = _timed_tensorcopy("check", "k.py", cwd=tmp_path)
    assert "k.py:7:12: TEN201" in first.stdout, first.stdout + first.stderr
    os.unlink(tmp_path / "x.py")
    os.mkfifo(tmp_path / "x.py")
    res = _timed_tensorcopy("check", "k.py", cwd=tmp_path)
    assert "Traceback" not in res.stderr and res.returncode in (0, 1), res.stderr
