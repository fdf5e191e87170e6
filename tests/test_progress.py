"""Progress on long work: on a terminal (a pty here), never on a pipe or in CI unless asked."""
from __future__ import annotations

import os
import pty
import select
import subprocess
import sys

import pytest

from .conftest import ROOT

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")


def _tree(tmp_path, n=60):
    for i in range(n):
        (tmp_path / f"m{i}.py").write_text("import torch\n\nx = torch.ones(3)\ny = torch.tensor(x)\n")
    return tmp_path


def _run(args, cwd, env, stderr_tty):
    """Run ``tensorcopy ARGS`` with stderr on a pty (as in a terminal) or a pipe; stdout is a
    pipe either way. Returns (rc, stdout, stderr)."""
    cmd = [sys.executable, "-m", "flake8_tensorcopy", *args]
    if not stderr_tty:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
        return p.returncode, p.stdout, p.stderr
    master, slave = pty.openpty()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=slave,
                            stdin=subprocess.DEVNULL)
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 4096)
            except OSError:  # the child closed the pty
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    out = proc.stdout.read().decode()
    proc.wait(timeout=300)
    os.close(master)
    return proc.returncode, out, b"".join(chunks).decode(errors="replace")


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS")}
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


ARGS = ["check", "--no-cache", "--jobs", "1", "."]


def test_a_terminal_sees_files_done_of_total_and_elapsed(tmp_path):
    rc, out, err = _run(ARGS, _tree(tmp_path), _env(), stderr_tty=True)
    assert rc == 1
    assert "/60 files, " in err and " s" in err, err
    assert "\r" in err  # redrawn in place, then cleared
    assert "files," not in out  # the report on stdout is untouched


def test_no_progress_on_a_pipe_or_in_ci_unless_asked(tmp_path):
    _tree(tmp_path)
    _, _, piped = _run(ARGS, tmp_path, _env(), stderr_tty=False)
    assert "files," not in piped
    _, _, ci = _run(ARGS, tmp_path, _env(CI="true"), stderr_tty=True)
    assert "files," not in ci
    _, _, asked = _run(ARGS[:1] + ["--progress"] + ARGS[1:], tmp_path, _env(CI="true"),
                       stderr_tty=False)
    assert "60/60 files, " in asked
    _, _, refused = _run(ARGS[:1] + ["--no-progress"] + ARGS[1:], tmp_path, _env(),
                         stderr_tty=True)
    assert "files," not in refused


def test_verify_shows_claims_done_of_total_on_a_terminal(tmp_path):
    pytest.importorskip("torch")
    rc, out, err = _run(["verify", "--device", "cpu", "--rule", "TEN301", "--quick"], tmp_path,
                        _env(), stderr_tty=True)
    assert "claims, " in err and "TEN301" in err, err
    assert "claims, " not in out
