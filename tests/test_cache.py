"""The results cache of `tensorcopy check` / `tensorcopy fix` (.tensorcopy_cache/ at the project
root). A hit is proven by tampering with the stored entry: a run that prints the tampered message
read the cache; a run that prints the real one analysed the file."""
import glob
import hashlib
import json
import os
import subprocess
import sys

import pytest

from flake8_tensorcopy import cache as cache_mod
from flake8_tensorcopy.cli import main

from .conftest import run, tensorcopy

SRC = "import torch\n\ndef f():\n    t = torch.ones(3)\n    return torch.tensor(t)\n"
TAMPERED = "served from the cache"


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.tensorcopy]\n")
    (tmp_path / "m.py").write_text(SRC)
    return tmp_path


def check(project, *args, env=None):
    return tensorcopy("check", "--output-format", "concise", *args, ".", cwd=str(project), env=env)


def entries(project):
    return glob.glob(str(project / ".tensorcopy_cache" / "*" / "*.json"))


def tamper(project):
    """Rewrite the message of every stored diagnostic."""
    paths = entries(project)
    assert paths
    for p in paths:
        with open(p) as fh:
            entry = json.load(fh)
        for d in entry["result"]["diagnostics"]:
            d[1] = TAMPERED
        with open(p, "w") as fh:
            json.dump(entry, fh)


def test_second_run_is_served_from_the_cache(project):
    first = check(project)
    assert first.returncode == 1 and "m.py:5:12: TEN201" in first.stdout, first.stderr
    assert (project / ".tensorcopy_cache" / ".gitignore").read_text().splitlines()[-1] == "*"
    assert len(entries(project)) == 1
    tamper(project)
    second = check(project)
    assert f"m.py:5:12: TEN201 {TAMPERED}" in second.stdout
    assert second.returncode == 1 and second.stderr == ""


def test_no_cache_neither_reads_nor_writes(project):
    res = check(project, "--no-cache")
    assert "TEN201" in res.stdout and not (project / ".tensorcopy_cache").exists()
    check(project)
    tamper(project)
    res = check(project, "--no-cache")
    assert TAMPERED not in res.stdout and "TEN201 `torch.tensor(t)`" in res.stdout


def test_an_edit_is_a_miss(project):
    check(project)
    tamper(project)
    (project / "m.py").write_text(SRC + "\n\ndef g(t: torch.Tensor):\n    return t.clone().detach()\n")
    res = check(project)
    assert TAMPERED not in res.stdout
    assert "m.py:5:12: TEN201 `torch.tensor(t)`" in res.stdout and "m.py:9:12: TEN301" in res.stdout
    assert len(entries(project)) == 1  # the entry for the path was replaced, not added to


@pytest.mark.parametrize("change", [
    ("cli", ["--ignore", "TEN3"]),
    ("cli", ["--select", "TEN2"]),
    ("config", 'tensor-names = ["mylib.T"]\n'),
    ("config", 'per-file-ignores = {"other.py" = ["TEN1"]}\n'),
])
def test_a_settings_change_is_a_miss(project, change):
    check(project)
    tamper(project)
    kind, value = change
    if kind == "cli":
        res = check(project, *value)
    else:
        (project / "pyproject.toml").write_text("[tool.tensorcopy]\n" + value)
        res = check(project)
    assert TAMPERED not in res.stdout and "TEN201 `torch.tensor(t)`" in res.stdout


def test_check_and_fix_keep_separate_entries(project):
    check(project)
    tamper(project)
    res = tensorcopy("fix", "--diff", ".", cwd=str(project))
    assert "t.detach().clone()" in res.stdout  # fix analysed the file: not check's entry


def test_a_version_change_is_a_miss(project):
    check(project)
    tamper(project)
    code = ("import sys, flake8_tensorcopy\nflake8_tensorcopy.__version__ = '99.0'\n"
            "from flake8_tensorcopy.cli import main\n"
            "sys.exit(main(['check', '--output-format', 'concise', '.']))\n")
    res = run([sys.executable, "-c", code], cwd=str(project))
    assert res.returncode == 1, res.stderr
    assert TAMPERED not in res.stdout and "TEN201 `torch.tensor(t)`" in res.stdout
    # and the old version's entry is still served to the old version
    assert TAMPERED in check(project).stdout


@pytest.mark.parametrize("garbage", [b"", b"{not json", b'{"path": 3}', b"[1, 2]",
                                     b'{"path": "x", "sha256": "y", "deps": [], "result": {}}'])
def test_a_corrupt_entry_is_one_warning_and_a_fresh_analysis(project, garbage):
    (project / "n.py").write_text(SRC)
    check(project)
    paths = entries(project)
    assert len(paths) == 2
    for p in paths:
        with open(p, "wb") as fh:
            fh.write(garbage)
    res = check(project)
    assert res.returncode == 1
    assert res.stdout.count("TEN201 `torch.tensor(t)`") == 2
    if garbage.startswith(b'{"path": "x"'):
        assert res.stderr == ""  # a valid entry for another content: a plain miss
    else:
        lines = res.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("tensorcopy: warning: ") and "corrupt" in lines[0]
    assert check(project).stderr == ""  # rewritten


def test_a_cache_that_cannot_be_created_is_one_warning(project):
    (project / ".tensorcopy_cache").write_text("in the way\n")  # a file where the folder goes
    (project / "n.py").write_text(SRC)
    res = check(project)
    assert res.returncode == 1 and res.stdout.count("TEN201 `torch.tensor(t)`") == 2
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tensorcopy: warning: cache disabled"), res.stderr
    assert "Traceback" not in res.stderr


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root writes into read-only folders; the next test covers it")
def test_a_read_only_project_folder_is_one_warning(project):
    os.chmod(project, 0o555)
    try:
        res = check(project)
    finally:
        os.chmod(project, 0o755)
    assert res.returncode == 1 and "TEN201 `torch.tensor(t)`" in res.stdout
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tensorcopy: warning: cache disabled")


def test_an_unwritable_cache_folder_is_one_warning(project, monkeypatch, capsys):
    """Every write refused (as in a read-only folder, which root would not see): in process."""
    monkeypatch.chdir(project)
    (project / "n.py").write_text(SRC)

    def refuse(*a, **k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(cache_mod, "named_temporary", refuse)
    status = main(["check", "--jobs", "1", "--output-format", "concise", "."])
    out, err = capsys.readouterr()
    assert status == 1 and out.count("TEN201 `torch.tensor(t)`") == 2
    lines = err.splitlines()
    assert lines == [lines[0]] and "cache disabled" in lines[0] and "Permission denied" in lines[0]


def test_a_dependency_change_is_a_miss(project, monkeypatch, capsys):
    """An entry records its project-index dependencies (here a stub of
    ``lint.dependency_states``); a changed, new or removed dependency is a miss."""
    monkeypatch.chdir(project)
    helper = project / "helper.py"
    helper.write_text("X = 1\n")
    future = project / "future.py"  # a dependency that does not exist yet
    def read(path):  # what an index that read the file now would record
        return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None

    monkeypatch.setattr(cache_mod, "dependencies",
                        lambda p: [(str(helper), read(helper)), (str(future), read(future))]
                        if p.endswith("m.py") else [])

    def run_check():
        main(["check", "--jobs", "1", "--output-format", "concise", "m.py"])
        return capsys.readouterr().out

    assert "TEN201 `torch.tensor(t)`" in run_check()
    (entry,) = entries(project)
    assert [d[0] for d in json.load(open(entry))["deps"]] == sorted([str(helper), str(future)])
    tamper(project)
    assert TAMPERED in run_check()  # unchanged dependencies: a hit
    helper.write_text("X = 22\n")
    assert TAMPERED not in run_check()
    tamper(project)
    assert TAMPERED in run_check()
    future.write_text("Y = 1\n")
    assert TAMPERED not in run_check()
    tamper(project)
    helper.unlink()
    assert TAMPERED not in run_check()


def test_parallel_runs_share_the_cache_safely(project):
    for i in range(40):  # enough files for the process pool
        (project / f"f{i}.py").write_text(SRC + f"\n\nY{i} = {i}\n")
    procs = [subprocess.Popen([sys.executable, "-m", "flake8_tensorcopy", "check", "--jobs", "2",
                               "--output-format", "concise", "."], cwd=str(project),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(3)]
    outs = [p.communicate(timeout=300) for p in procs]
    for out, err in outs:
        assert out.count("TEN201") == 41 and err == "", err
    assert len(entries(project)) == 41
    assert not glob.glob(str(project / ".tensorcopy_cache" / "*" / ".tensorcopy-*.tmp"))
    tamper(project)
    assert check(project).stdout.count(TAMPERED) == 41


def test_fix_uses_the_cache_for_files_with_nothing_to_fix(project):
    res = tensorcopy("fix", ".", cwd=str(project))
    assert "Fixed 1 diagnostic" in res.stderr and "t.detach().clone()" in (project / "m.py").read_text()
    assert entries(project) == []  # a file that changed is not stored
    tensorcopy("fix", ".", cwd=str(project))  # nothing left to fix: stored
    assert len(entries(project)) == 1
    (project / "m.py").write_text(SRC)
    res = tensorcopy("fix", ".", cwd=str(project))
    assert "Fixed 1 diagnostic" in res.stderr  # an edit is a miss for fix too


def test_a_run_served_from_the_cache_loads_no_analysis_code(project):
    """The second run's cost is reading the cache: it must not import the rules, the engine or
    libcst (they are what makes a first run slow to start)."""
    assert check(project).returncode == 1
    script = (
        "import sys\nfrom flake8_tensorcopy.cli import main\n"
        "try:\n    code = main(['check', '--output-format', 'concise', '.'])\n"
        "except SystemExit as e:\n    code = e.code\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] == 'libcst' or m in "
        "('flake8_tensorcopy.engine', 'flake8_tensorcopy.rules', 'flake8_tensorcopy.semantic.infer'))\n"
        "print('EXIT', code, 'HEAVY', heavy)\n")
    res = run([sys.executable, "-c", script], cwd=str(project))
    assert "EXIT 1 HEAVY []" in res.stdout, (res.stdout, res.stderr)
    assert "TEN201" in res.stdout
    # the check can fail: with the file changed, the same run analyses it (in this process,
    # without a per-file budget: with one, a forked worker does) and loads them
    (project / "m.py").write_text(SRC + "\n")
    in_process = script.replace("'concise', '.'", "'concise', '--timeout', '0', '.'")
    res = run([sys.executable, "-c", in_process], cwd=str(project))
    assert "EXIT 1 HEAVY []" not in res.stdout and "flake8_tensorcopy.engine" in res.stdout


# ---- issue 22, items 4-7: never a stale answer -------------------------------------------------
CROSS_B = "import torch\nfrom helpers import make\n\ny = torch.tensor(make())\n"
CROSS_A = "import torch\n\n\ndef make():\n    return torch.zeros(3)\n"


def test_a_module_created_after_the_first_run_is_noticed(project):
    """The first run finds no ``helpers`` module: nothing is known of ``make()`` and b.py is
    clean. Creating helpers.py makes the same b.py a finding; the path the index looked for and
    did not find is a dependency too."""
    (project / "m.py").unlink()
    (project / "b.py").write_text(CROSS_B)
    first = check(project)
    assert first.returncode == 0 and "TEN201" not in first.stdout, first.stdout
    (project / "helpers.py").write_text(CROSS_A)
    second = check(project)
    assert second.returncode == 1 and "b.py:4:5: TEN201" in second.stdout, second.stdout


def test_source_roots_are_part_of_the_key(project):
    (project / "m.py").unlink()
    (project / "b.py").write_text(CROSS_B)
    (project / "lib").mkdir()
    (project / "lib" / "helpers.py").write_text(CROSS_A)
    assert check(project).returncode == 0  # lib/ is not a source root: make() is unknown
    (project / "pyproject.toml").write_text('[tool.tensorcopy]\nsource-roots = ["lib"]\n')
    second = check(project)
    assert second.returncode == 1 and "b.py:4:5: TEN201" in second.stdout, second.stdout


def test_a_refused_fix_is_not_cached(project):
    """A read-only file is not written (the fix is refused with a note); once it is writable
    again the next run must fix it, not trust a stored answer."""
    m = project / "m.py"
    m.chmod(0o444)
    first = tensorcopy("fix", ".", cwd=str(project))
    assert m.read_text() == SRC and "read-only" in first.stderr, first.stderr
    m.chmod(0o644)
    second = tensorcopy("fix", ".", cwd=str(project))
    assert "t.detach().clone()" in m.read_text(), second.stderr


def test_a_dependency_replaced_with_the_same_mtime_and_size_is_a_miss(project):
    """``cp -p`` of a file with the same length: same mtime, same size, other content. Cached
    dependencies are keyed by the hash of what the index read."""
    (project / "m.py").unlink()
    (project / "b.py").write_text(CROSS_B)
    helpers = project / "helpers.py"
    helpers.write_text(CROSS_A)
    first = check(project)
    assert first.returncode == 1 and "b.py:4:5: TEN201" in first.stdout, first.stdout
    st = os.stat(helpers)
    other = CROSS_A.replace("torch.zeros(3)", "list((1, 2))  ")  # same length, not a tensor
    assert len(other) == len(CROSS_A)
    helpers.write_text(other)
    os.utime(helpers, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(helpers).st_size == st.st_size
    second = check(project)
    assert second.returncode == 0 and "TEN201" not in second.stdout, second.stdout


def test_a_write_removes_temporaries_a_killed_run_left(project):
    """An entry is written to a temporary file and renamed into place; a run killed (SIGKILL)
    in between leaves that file. The next run that writes removes what no live run holds
    (``writes.remove_orphans``, the sweep ``fix`` uses): a dead writer's file, or one over a
    minute old, and leaves a young one whose writer lives."""
    assert check(project).returncode == 1
    folder = os.path.dirname(entries(project)[0])
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    live = os.getpid()
    paths = {kind: os.path.join(folder, f".tensorcopy-{pid}-{kind}.tmp")
             for kind, pid in (("dead", dead), ("old", live), ("young", live))}
    for path in paths.values():
        with open(path, "w") as fh:
            fh.write('{"half": ')
    long_ago = os.stat(paths["old"]).st_mtime - 3600
    os.utime(paths["old"], (long_ago, long_ago))
    (project / "m.py").write_text(SRC + "\n")  # a miss: the run writes an entry
    assert check(project).returncode == 1
    assert [os.path.exists(paths[k]) for k in ("dead", "old", "young")] == [False, False, True]
    assert len(entries(project)) == 1
