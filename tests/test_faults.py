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


# ----------------------------------------------------------- item 1: a killed run and its workers
def _processes():
    """{pid: (state, ppid, process group)} of every process (Linux /proc)."""
    out = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            out[int(name)] = (fields[0], int(fields[1]), int(fields[2]))
    return out


def _alive_in_group(pgid):
    return [pid for pid, (state, _, group) in _processes().items()
            if group == pgid and state not in ("Z", "X")]


def _wait_for(predicate, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
@pytest.mark.parametrize("command", ["check", "fix", "check --timeout 0"])  # forked, or a pool
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL], ids=["TERM", "KILL"])
def test_a_killed_run_leaves_no_worker_alive(tmp_path, command, signum):
    """Only the parent is signalled (as a supervisor that knows one pid does): its workers must
    die with it, and a SIGTERM'd run says so and exits 143."""
    tree = tmp_path / "tree"
    tree.mkdir()
    for i in range(600):
        (tree / f"m{i:03}.py").write_text(BAD * 30)
    err_file = open(tmp_path / "stderr", "w+")  # not a pipe: a surviving worker would hold it
    proc = subprocess.Popen([sys.executable, "-m", "flake8_tensorcopy", *command.split(),
                             "--no-cache", "-j", "2", "."], cwd=str(tree), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=err_file)
    try:
        started = _wait_for(lambda: sum(1 for _, ppid, _ in _processes().values()
                                        if ppid == proc.pid) >= 2, 60)
        assert started, "no workers started"
        time.sleep(0.3)  # well into the run
        os.kill(proc.pid, signum)
        proc.wait(timeout=30)
        err = (tmp_path / "stderr").read_text()
        gone = _wait_for(lambda: not _alive_in_group(proc.pid), 10)
        assert gone, f"workers left alive: {_alive_in_group(proc.pid)}"
        if signum == signal.SIGTERM:
            assert proc.returncode == 143, err
            lines = err.splitlines()
            assert len(lines) == 1 and lines[0].startswith(
                "tensorcopy: error: terminated by SIGTERM after "), err
        else:
            assert proc.returncode == -signal.SIGKILL
        names = sorted(p.name for p in tree.iterdir())
        assert names == [f"m{i:03}.py" for i in range(600)]  # no temporary file left
        assert {p.read_text() for p in tree.iterdir()} <= {BAD * 30, FIXED * 30}
    finally:
        for pid in _alive_in_group(proc.pid):
            os.kill(pid, signal.SIGKILL)
        proc.wait()
        err_file.close()


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
    "a FIFO": None,  # made below: reading it must not block
    "a directory": None,
}


def test_malformed_cache_entries_are_one_warning_and_rebuilt(tmp_path):
    """One file per kind of corruption, all in one run (fast): each file is analysed again,
    the run says so in one line, and the next run is served from the rebuilt entries."""
    names = sorted(CORRUPTIONS)
    (tmp_path / "pyproject.toml").write_text("[tool.tensorcopy]\n")
    for i in range(len(names)):
        (tmp_path / f"c{i:02}.py").write_text(SRC)
    first = _check(tmp_path)
    assert first.returncode == 1 and first.stdout.count(MESSAGE) == len(names)
    paths = _entries(tmp_path)
    assert len(paths) == len(names)
    for p in paths:
        with open(p) as fh:
            entry = json.load(fh)
        name = names[int(os.path.basename(entry["path"])[1:3])]
        if name == "a FIFO" and hasattr(os, "mkfifo"):
            os.unlink(p)
            os.mkfifo(p)
        elif CORRUPTIONS[name] is None:
            os.unlink(p)
            os.mkdir(p)
        else:
            with open(p, "wb") as fh:
                fh.write(CORRUPTIONS[name](entry))
    try:
        res = run([sys.executable, "-m", "flake8_tensorcopy", "check", "--output-format",
                   "concise", "."], cwd=str(tmp_path), timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("blocked on the cache")
    assert "Traceback" not in res.stderr, res.stderr
    assert res.returncode == 1 and res.stdout == first.stdout, res.stdout + res.stderr
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tensorcopy: warning: ") \
        and "corrupt cache entry" in lines[0], res.stderr
    for p in paths:  # each one rewritten
        with open(p) as fh:
            assert json.load(fh)["result"]["diagnostics"][0][0] == "TEN201"
    again = _check(tmp_path)  # served, silently
    assert again.stderr == "" and again.stdout == first.stdout


# ------------------------------------------------------------- item 3: files that are not files
def _timed_tensorcopy(*args, cwd, timeout=60):
    """The CLI's run, or a failure if it hangs (its whole process group killed then)."""
    proc = subprocess.Popen([sys.executable, "-m", "flake8_tensorcopy", *args], cwd=str(cwd),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"tensorcopy {' '.join(args)} hung")
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


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


# ------------------------------------------- item 2: a file appended to while it is being fixed
APPENDER = """
import sys, time
path, n, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
held = open(path, "a") if mode != "reopened" else None  # a logger, a generator


def write(i):
    fh = held or open(path, "a")
    fh.write(f"x{i} = 1\\n")
    fh.flush()
    if fh is not held:
        fh.close()


print("ready", flush=True)
sys.stdin.readline()
for i in range(n // 2):
    write(i)
if mode != "racing":  # the first half written: wait until told (the fix runs meanwhile)
    print("half", flush=True)
    sys.stdin.readline()
for i in range(n // 2, n):
    write(i)
    if mode == "racing":
        time.sleep(0.02)
"""


WORKER_KILLED_IN_THE_RENAME = r"""
import os, signal, sys, time
import flake8_tensorcopy.writes as fx
from flake8_tensorcopy.commands.common import die_with_parent
parent = os.getpid()
if os.fork() == 0:
    die_with_parent(parent)  # as every worker does
    real = os.replace
    def replace(src, dst):  # the parent dies between the temporary file's naming and its rename
        os.kill(parent, signal.SIGKILL)
        time.sleep(1)  # the parent-death signal arrives here
        real(src, dst)
    os.replace = replace
    fx.atomic_write(sys.argv[1], b"new\n", expect=b"old\n")
    os._exit(0)
os.wait()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal")
def test_a_worker_whose_parent_dies_while_it_renames_leaves_no_temporary_file(tmp_path):
    """CI once found a `.tensorcopy-*.tmp` left after `fix -j 2` was killed with -9: the worker,
    killed by its parent's death after naming its temporary file and before renaming it, could
    not remove it. The death signal now waits for the rename: the file is written whole and the
    worker dies right after, leaving nothing."""
    f = tmp_path / "a.py"
    f.write_text("old\n")
    proc = subprocess.Popen([sys.executable, "-c", WORKER_KILLED_IN_THE_RENAME, str(f)],
                            start_new_session=True)
    assert proc.wait(timeout=30) == -signal.SIGKILL
    assert _wait_for(lambda: not _alive_in_group(proc.pid), 10), _alive_in_group(proc.pid)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py"]
    assert f.read_text() == "new\n"


_LEASES = pytest.mark.skipif(sys.platform != "linux",
                             reason="a writer holding the file open is seen through leases")


@pytest.mark.parametrize("mode", [pytest.param("held-open", marks=_LEASES), "reopened",
                                  pytest.param("racing", marks=_LEASES)])
def test_a_file_appended_to_during_fix_is_never_shortened(tmp_path, mode):
    """Another process appends lines while `fix` runs (held-open: it keeps the file open and
    pauses while fix runs; reopened: it opens the file for each line; racing: it writes all the
    time): every appended line is in the file at the end, and a fix not written is said, exit 1.
    """
    f = tmp_path / "a.py"
    head = BAD * 40
    f.write_text(head)
    n = 100
    writer = subprocess.Popen([sys.executable, "-c", APPENDER, str(f), str(n), mode],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout.readline() == "ready\n"
        writer.stdin.write("go\n")
        writer.stdin.flush()
        if mode == "racing":
            time.sleep(0.2)
        else:
            assert writer.stdout.readline() == "half\n"
        res = _timed_tensorcopy("fix", "--no-cache", "a.py", cwd=tmp_path)
        if mode != "racing":
            writer.stdin.write("go\n")
            writer.stdin.flush()
        assert writer.wait(timeout=60) == 0
    finally:
        writer.kill()
        writer.wait()
    text = f.read_text()
    appended = "".join(f"x{i} = 1\n" for i in range(n))
    assert text.endswith(appended), (res.stderr, len(text.splitlines()))
    assert text in (head + appended, FIXED * 40 + appended), res.stderr
    if mode == "reopened":  # nothing held the file open: fixed
        assert text == FIXED * 40 + appended and res.returncode == 0, res.stderr
    if mode == "held-open":
        assert "a.py: is open for writing in another process; left unchanged" in res.stderr
    if text == head + appended:  # not written: said so, and not a success
        assert res.returncode == 1, res.stderr
        assert "left unchanged" in res.stderr and res.stderr.startswith(
            "tensorcopy: warning: a.py: "), res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py"]
