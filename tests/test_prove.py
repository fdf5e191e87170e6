"""``tensorcopy fix --prove CMD`` through the real CLI, on small projects made here (git
repositories with a tiny test suite or script, no torch: TEN301 flags ``t.clone().detach()`` on
any ``t``, and a test's stand-in object records the order of the calls, which the fix changes)."""
from __future__ import annotations

import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from flake8_tensorcopy.commands.prove import Source, fixed_lines, moved_on

from .conftest import ROOT

MOD = """\
def used(t):
    return t.clone().detach()


def breaks(t):
    return t.clone().detach()


def never(t):
    return t.clone().detach()
"""

REC = """\
class Rec:
    def __init__(self, log):
        self.log = log

    def clone(self):
        self.log.append("clone")
        return self

    def detach(self):
        self.log.append("detach")
        return self
"""

TESTS = REC + """

from pkg.mod import breaks, used


def test_used():
    assert used(Rec([])) is not None


def test_breaks():
    log = []
    breaks(Rec(log))
    assert log == ["clone", "detach"]
"""

#: pytest without the plugins installed here (a fixture project needs none): fast to start
PYTEST = "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 {} -m pytest -q -p no:cacheprovider tests".format(
    sys.executable)
FIXED = "t.detach().clone()"


def project(root, files):
    """A committed git repository at ``root`` holding ``files`` (path -> text or bytes)."""
    files = dict(files)
    files.setdefault(".gitignore", "__pycache__/\n")
    files.setdefault("pkg/__init__.py", "")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            with open(path, "w", newline="") as fh:
                fh.write(text)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "fixture")
    return root


def git(root, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t", GIT_CONFIG_NOSYSTEM="1", HOME=str(root))
    subprocess.run(["git", *args], cwd=root, check=True, env=env, capture_output=True)


def env():
    return dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
                CI="1")


def prove(root, cmd, *extra, timeout=240):
    return subprocess.run([sys.executable, "-m", "flake8_tensorcopy", "fix", "--prove", cmd,
                           *extra, "pkg"], cwd=root, capture_output=True, text=True,
                          env=env(), timeout=timeout)


def where(fixes):
    return sorted((f["path"], f["line"]) for f in fixes)


def test_a_breaking_fix_is_isolated_and_reverted_an_unexercised_one_left_out(tmp_path):
    root = project(tmp_path, {"pkg/mod.py": MOD, "tests/test_mod.py": TESTS})
    r = prove(root, PYTEST, "--unsafe-fixes", "--output-format", "json")
    assert r.returncode == 1, r.stderr
    data = json.loads(r.stdout)
    mod = os.path.join("pkg", "mod.py")
    assert data["candidates"] == 3
    assert data["baseline"] == {"kind": "pytest", "tests": 2, "exit_status": 0, "flaky": []}
    assert where(data["proven"]) == [(mod, 2)]
    assert where(data["rejected"]) == [(mod, 6)]
    assert data["rejected"][0]["changed"] == [
        {"test": "tests/test_mod.py::test_breaks", "before": "passed", "after": "failed"}]
    assert where(data["not_exercised"]) == [(mod, 10)]
    assert data["applied"] == 1
    # 2 baseline runs, all 3, the first half (kept), the second half's first fix (rejected),
    # its last fix (kept: not run by the tests), the tree as it stays (confirming)
    assert data["runs"] == 7
    assert [t["run"] for t in data["run_times"]] == [
        "baseline 1/2", "baseline 2/2", "3 fix(es)", "1 fix(es)", "1 fix(es)", "1 fix(es)",
        "confirming"]
    lines = (root / "pkg" / "mod.py").read_text().splitlines()
    assert FIXED in lines[1] and FIXED not in lines[5] and FIXED not in lines[9]
    assert data["wall_time_s"] > 0


def test_the_text_report_names_each_kind(tmp_path):
    root = project(tmp_path, {"pkg/mod.py": MOD, "tests/test_mod.py": TESTS})
    r = prove(root, PYTEST, "--unsafe-fixes")
    assert r.returncode == 1, r.stderr
    out = r.stdout
    assert "3 candidate(s), 7 run(s)" in out
    assert "Proven (applied; CMD ran the fixed line, outcomes unchanged): 1\n  pkg/mod.py:2:12: " \
        "TEN301" in out
    assert "Rejected (reverted; they changed CMD's outcome): 1\n  pkg/mod.py:6:12:" in out
    assert "tests/test_mod.py::test_breaks: passed -> failed" in out
    assert "Not exercised (CMD never ran the fixed line; left out" in out
    assert "pkg/mod.py:10:12:" in out


FLAKY = REC + """

import os

from pkg.mod import used

STATE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "count")


def test_used():
    assert used(Rec([])) is not None


def test_flaky():
    n = int(open(STATE).read()) if os.path.exists(STATE) else 0
    open(STATE, "w").write(str(n + 1))
    assert n % 2 == 0
"""


def test_a_flaky_test_is_named_and_left_out(tmp_path):
    root = project(tmp_path / "p", {"pkg/mod.py": MOD, "tests/test_mod.py": FLAKY})
    r = prove(root, PYTEST, "--unsafe-fixes", "--output-format", "json")
    data = json.loads(r.stdout)
    assert data["baseline"]["flaky"] == ["tests/test_mod.py::test_flaky"]
    # its outcome flips at every run: had it been compared, every batch would be rejected
    assert data["rejected"] == []
    assert where(data["proven"]) == [(os.path.join("pkg", "mod.py"), 2)]
    assert r.returncode == 1  # two fixes not exercised remain
    text = prove(root, PYTEST, "--unsafe-fixes", "--allow-dirty")
    assert "Flaky (outcome differs between two unchanged runs; not compared): 1\n" \
           "  tests/test_mod.py::test_flaky" in text.stdout


SCRIPT = REC + """
import sys

from pkg.mod import breaks, used

log = []
breaks(Rec(log))
used(Rec([]))
print(log)
"""


def test_a_command_that_is_not_pytest_is_judged_by_exit_status_and_output(tmp_path):
    root = project(tmp_path, {"pkg/mod.py": MOD, "run.py": SCRIPT})
    r = prove(root, f"{sys.executable} run.py", "--unsafe-fixes", "--output-format", "json",
              "--progress")
    data = json.loads(r.stdout)
    assert "3/3 fixes settled" in r.stderr  # --progress: on stderr, never in the report
    assert data["baseline"]["kind"] == "exit"
    assert where(data["proven"]) == [(os.path.join("pkg", "mod.py"), 2)]
    assert where(data["rejected"]) == [(os.path.join("pkg", "mod.py"), 6)]
    assert [c["test"] for c in data["rejected"][0]["changed"]] == ["stdout sha256"]
    assert where(data["not_exercised"]) == [(os.path.join("pkg", "mod.py"), 10)]


def interpreter(version):
    """A Python ``version`` (pyenv's, else pythonX.Y on PATH), or None."""
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    found = sorted(glob.glob(os.path.join(root, "versions", f"{version}.*", "bin", "python")))
    return found[-1] if found else shutil.which(f"python{version}")


@pytest.mark.parametrize("python", ["3.9", "3.12", "3.13"])
def test_coverage_in_other_pythons(tmp_path, python):
    """3.12 and later: the probe counts lines through sys.monitoring; before, through
    sys.settrace (and 3.9, the oldest supported, runs the probe's code)."""
    exe = interpreter(python)
    if exe is None:
        pytest.skip(f"no Python {python} here")
    root = project(tmp_path, {"pkg/mod.py": MOD, "run.py": SCRIPT})
    r = prove(root, f"{exe} run.py", "--unsafe-fixes", "--output-format", "json")
    data = json.loads(r.stdout)
    assert where(data["proven"]) == [(os.path.join("pkg", "mod.py"), 2)]
    assert where(data["not_exercised"]) == [(os.path.join("pkg", "mod.py"), 10)]


def test_keep_unexercised_applies_them_without_calling_them_proven(tmp_path):
    root = project(tmp_path, {"pkg/mod.py": MOD, "run.py": SCRIPT})
    r = prove(root, f"{sys.executable} run.py", "--unsafe-fixes", "--keep-unexercised",
              "--output-format", "json")
    data = json.loads(r.stdout)
    assert where(data["not_exercised"]) == [(os.path.join("pkg", "mod.py"), 10)]
    assert (os.path.join("pkg", "mod.py"), 10) not in where(data["proven"])
    assert data["not_exercised_applied"] is True and data["applied"] == 2
    assert FIXED in (root / "pkg" / "mod.py").read_text().splitlines()[9]


#: sleeps from the third run on (the first with fixes applied), after saying so and its pid
SLEEPER = """\
import os
import time

n = int(open("../count").read()) if os.path.exists("../count") else 0
open("../count", "w").write(str(n + 1))
if n >= 2:
    open("../pid", "w").write(str(os.getpid()))
    time.sleep(120)
"""

#: odd bytes that must come back exactly: CRLF lines, a Latin-1 cookie and character
ODD = ("# -*- coding: latin-1 -*-\r\n# caf\xe9\r\n" + MOD.replace("\n", "\r\n")).encode("latin-1")


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rpartition(b")")[2].split()[0] not in (b"Z", b"X")
    except OSError:
        return False


def start_and_wait(root, *extra):
    """tensorcopy running --prove with SLEEPER, once CMD sleeps on the fixed tree."""
    proc = subprocess.Popen([sys.executable, "-m", "flake8_tensorcopy", "fix", "--prove",
                             f"{sys.executable} sleeper.py", "--unsafe-fixes", *extra, "pkg"],
                            cwd=root, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    pid_file = root.parent / "pid"
    deadline = time.monotonic() + 120
    while not pid_file.exists() or not pid_file.read_text():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return proc, int(pid_file.read_text())


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_an_interrupted_run_restores_every_byte_and_leaves_no_process(tmp_path, signum):
    root = project(tmp_path / "p", {"pkg/mod.py": ODD, "sleeper.py": SLEEPER})
    mod = root / "pkg" / "mod.py"
    before = os.stat(mod)
    proc, pid = start_and_wait(root)
    assert mod.read_bytes() != ODD  # the fixes are on disk while CMD runs
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signum, err
    assert f"stopped by {signal.Signals(signum).name}; every file was written back" in \
        err.decode()
    assert mod.read_bytes() == ODD
    assert os.stat(mod).st_mtime == before.st_mtime
    assert not alive(pid)
    assert not [n for n in os.listdir(root / "pkg") if n.startswith(".tensorcopy-")]


def test_a_timeout_restores_every_byte(tmp_path):
    root = project(tmp_path / "p", {"pkg/mod.py": ODD, "sleeper.py": SLEEPER})
    r = prove(root, f"{sys.executable} sleeper.py", "--unsafe-fixes", "--prove-timeout", "4")
    assert r.returncode == 2
    assert "run 3 (3 fix(es)) of CMD took longer than 4 s (--prove-timeout); every file was " \
           "written back as it was" in r.stderr
    assert (root / "pkg" / "mod.py").read_bytes() == ODD
    assert not alive(int((tmp_path / "pid").read_text()))


def test_a_command_that_does_not_start_changes_nothing(tmp_path):
    root = project(tmp_path, {"pkg/mod.py": MOD})
    r = prove(root, "no-such-command-tensorcopy --x", "--unsafe-fixes")
    assert r.returncode == 2
    assert "--prove: CMD did not start (exit status 127" in r.stderr
    assert "every file was written back as it was" in r.stderr
    assert (root / "pkg" / "mod.py").read_text() == MOD
    assert r.stdout == ""


def test_a_dirty_tree_is_refused_unless_allowed(tmp_path):
    root = project(tmp_path, {"pkg/mod.py": MOD, "run.py": SCRIPT})
    (root / "pkg" / "mod.py").write_text(MOD + "\n")
    r = prove(root, f"{sys.executable} run.py", "--unsafe-fixes")
    assert r.returncode == 2
    assert "the git working tree has uncommitted changes (1 path(s), e.g. pkg/mod.py); " \
           "commit or stash first, or pass --allow-dirty" in r.stderr
    assert (root / "pkg" / "mod.py").read_text() == MOD + "\n"
    r = prove(root, f"{sys.executable} run.py", "--unsafe-fixes", "--allow-dirty")
    assert r.returncode == 1, r.stderr
    assert "Proven (applied; CMD ran the fixed line, outcomes unchanged): 1" in r.stdout


def test_outside_git_it_is_refused_unless_allowed(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(MOD)
    r = prove(tmp_path, f"{sys.executable} -c pass", "--unsafe-fixes")
    assert r.returncode == 2 and "not a git working tree" in r.stderr
    r = prove(tmp_path, f"{sys.executable} -c pass", "--unsafe-fixes", "--allow-dirty",
              "--output-format", "json")
    data = json.loads(r.stdout)
    assert len(data["not_exercised"]) == 3 and data["applied"] == 0
    assert (tmp_path / "pkg" / "mod.py").read_text() == MOD


def test_a_file_fix_leaves_alone_is_not_tried(tmp_path):
    root = project(tmp_path, {"pkg/mod.py": MOD, "pkg/other.py": MOD, "run.py": SCRIPT})
    os.chmod(root / "pkg" / "other.py", 0o444)
    r = prove(root, f"{sys.executable} run.py", "--unsafe-fixes", "--output-format", "json")
    assert "tensorcopy: warning: pkg/other.py: is read-only; left unchanged; its 3 fix(es) " \
           "not tried" in r.stderr
    data = json.loads(r.stdout)
    assert data["candidates"] == 3 and {f["path"] for f in data["not_exercised"]} == {
        os.path.join("pkg", "mod.py")}
    assert (root / "pkg" / "other.py").read_text() == MOD


def test_nothing_to_prove_runs_nothing(tmp_path):
    root = project(tmp_path, {"pkg/mod.py": "def f(t):\n    return t.detach().clone()\n"})
    r = prove(root, "touch ran", "--unsafe-fixes")
    assert (r.returncode, r.stdout) == (0, "No fixes to prove: CMD was not run.\n"), r.stderr
    r = prove(root, "touch ran", "--output-format", "json")
    data = json.loads(r.stdout)
    assert (data["candidates"], data["runs"], data["proven"]) == (0, 0, [])
    assert not (root / "ran").exists()


def test_prove_options_need_prove(tmp_path):
    root = project(tmp_path, {"pkg/mod.py": MOD})
    r = subprocess.run([sys.executable, "-m", "flake8_tensorcopy", "fix", "--allow-dirty",
                        "pkg"], cwd=root, capture_output=True, text=True, env=env())
    assert r.returncode == 2 and "--allow-dirty only go with --prove" in r.stderr
    assert (root / "pkg" / "mod.py").read_text() == MOD


def test_fixed_lines_follow_the_edits_before_them():
    from flake8_tensorcopy.fixes import apply_fixes, fix_candidates

    source = "import torch\n\n\ndef f(p, x):\n    p.data.add_(x)\n\n\ndef g(t):\n" \
             "    return t.clone().detach()\n"
    fixes = fix_candidates(source, unsafe=True)
    assert [d.code for d in fixes] == ["TEN102", "TEN301"]

    class C:
        def __init__(self, i, d):
            self.index, self.diag = i, d

    chosen = [C(i, d) for i, d in enumerate(fixes)]
    text = apply_fixes(source, fixes)
    lines = fixed_lines(text, chosen)
    assert lines[0] == {5, 6}  # the with statement and the call under it
    assert lines[1] == {10}  # one line further down than in the source
    assert text.splitlines()[9] == "    return t.detach().clone()"


def test_each_rewrite_moves_the_mtime_on_by_whole_seconds(tmp_path):
    """A cached .pyc is checked by whole seconds and size: two versions of a file written
    within one second with the same size must not share an mtime."""
    path = tmp_path / "m.py"
    path.write_text("x = 1\n")
    src = Source(str(path), str(path), None, mtime=os.stat(path).st_mtime)
    seen = {int(src.mtime)}
    for _ in range(3):
        moved_on(src)
        now = int(os.stat(path).st_mtime)
        assert now not in seen
        seen.add(now)


def test_a_command_that_hides_the_probe_is_refused_with_the_reason(tmp_path):
    """CMD replacing PYTHONPATH (or ``python -I``) keeps the probe out: nothing could be seen
    to run, which is said at once rather than calling every fix not exercised."""
    root = project(tmp_path, {"pkg/mod.py": MOD, "run.py": SCRIPT})
    r = prove(root, f"PYTHONPATH=. {sys.executable} run.py", "--unsafe-fixes")
    assert r.returncode == 2
    assert "the probe did not start in any Python process of CMD" in r.stderr
    assert "PYTHONPATH=DIR:$PYTHONPATH" in r.stderr
    assert (root / "pkg" / "mod.py").read_text() == MOD
    r = prove(root, f"PYTHONPATH=.:$PYTHONPATH {sys.executable} run.py", "--unsafe-fixes")
    assert r.returncode == 1 and "Proven (applied; CMD ran the fixed line, outcomes " \
        "unchanged): 1" in r.stdout, r.stderr


def test_building_the_cli_loads_no_engine_for_prove():
    """--prove's options are declared with fix's, but the door (and the engine) loads only when
    it runs, as for fix itself."""
    code = ("import sys\nfrom flake8_tensorcopy.cli import build_parser\nbuild_parser()\n"
            "print(sorted(m for m in ('flake8_tensorcopy.fixes', 'flake8_tensorcopy.engine',"
            " 'flake8_tensorcopy.commands.prove') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env())
    assert r.stdout.strip() == "['flake8_tensorcopy.commands.prove']", r.stderr
