"""Issue 14: fixes never lose a byte (stdin, file identity), lines as the tokenizer counts them,
no crash on deep nesting or bad notebooks, the time budget holds inside the native parser,
and every message and exit status says what happened. Each test drives the real CLI or flake8."""
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import time

import pytest

from flake8_tensorcopy import lint_source
from flake8_tensorcopy.fixes import fix_source

from .conftest import flake8, run, tensorcopy

BAD = "import torch\nt = torch.ones(2)\nc = torch.tensor(t)\n"
FIXED = "import torch\nt = torch.ones(2)\nc = t.detach().clone()\n"
#: several seconds to analyse, more than one of them in ``ast.parse`` (native code, where SIGALRM
#: cannot interrupt it)
SLOW = "import torch\n" + "x = a.data.sum()\n" * 60000


def deep(n=2000):
    return "import torch\nx = " + "(" * n + "a.data" + ")" * n + "\n"


# ------------------------------------------------------------------- 1: `fix -` is a filter
@pytest.mark.parametrize("data,why", [
    (b"import torch\ndef f(:\n", "syntax error"),
    (b"import torch\ns = '\xff'\nc = torch.tensor(t)\n", "cannot decode"),
    (deep().encode(), "too deeply nested"),
])
def test_fix_stdin_echoes_what_it_cannot_fix(data, why):
    res = subprocess.run([sys.executable, "-m", "flake8_tensorcopy", "fix", "-"], input=data,
                         capture_output=True, timeout=120)
    assert res.stdout == data
    err = res.stderr.decode()
    assert why in err and "input echoed unchanged" in err and "Traceback" not in err
    assert res.returncode != 0


def test_fix_stdin_echoes_input_past_the_budget():
    start = time.monotonic()
    res = subprocess.run([sys.executable, "-m", "flake8_tensorcopy", "fix", "--timeout", "1", "-"],
                         input=SLOW.encode(), capture_output=True, timeout=120)
    assert time.monotonic() - start < 8
    assert res.stdout == SLOW.encode()
    assert "exceeded the 1 s per-file budget" in res.stderr.decode()


# ------------------------------------------------------------------ 3: the file's identity
def fix_file(path, *extra):
    return tensorcopy("fix", *extra, str(path))


def test_fix_keeps_owner_group_and_mode(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("changing a file's owner needs root")
    f = tmp_path / "a.py"
    f.write_text(BAD)
    os.chown(f, 12345, 23456)
    os.chmod(f, 0o640)
    res = fix_file(f)
    assert f.read_text() == FIXED, res.stderr
    st = os.stat(f)
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (12345, 23456, 0o640)


def test_fix_leaves_hard_linked_files_linked(tmp_path):
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text(BAD)
    os.link(a, b)
    res = fix_file(a)
    assert os.stat(a).st_ino == os.stat(b).st_ino
    assert a.read_text() == BAD
    assert "a.py: has 1 other hard link(s); left unchanged" in res.stderr
    assert res.returncode == 1


def test_fix_never_writes_through_a_symlink_out_of_the_tree(tmp_path):
    outside = tmp_path / "outside.py"
    outside.write_text(BAD)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "link.py").symlink_to(outside)
    (tree / "own.py").write_text(BAD)
    res = fix_file(tree)
    assert outside.read_text() == BAD
    assert (tree / "link.py").is_symlink()
    assert (tree / "own.py").read_text() == FIXED
    assert "link.py: is a symbolic link to a file outside the linted tree; left unchanged" \
        in res.stderr
    assert res.returncode == 1


def test_fix_leaves_read_only_files(tmp_path):
    f = tmp_path / "ro.py"
    f.write_text(BAD)
    os.chmod(f, 0o444)
    res = fix_file(f)
    assert f.read_text() == BAD and stat.S_IMODE(os.stat(f).st_mode) == 0o444
    assert "ro.py: is read-only; left unchanged" in res.stderr
    assert res.returncode == 1


def test_fix_does_not_overwrite_an_edit_saved_meanwhile(tmp_path):
    f = tmp_path / "a.py"
    f.write_text(BAD)
    edited = BAD + "# saved by the editor while the fix ran\n"
    # the real CLI, with the user's save happening while the file is being fixed
    script = (
        "import sys, flake8_tensorcopy.fixes as fx\n"
        "real = fx.fix_source\n"
        "def fix_source(*a, **k):\n"
        "    out = real(*a, **k)\n"
        f"    open({str(f)!r}, 'w').write({edited!r})\n"
        "    return out\n"
        "fx.fix_source = fix_source\n"
        "from flake8_tensorcopy.cli import main\n"
        f"sys.exit(main(['fix', {str(f)!r}]))\n")
    res = run([sys.executable, "-c", script])
    assert f.read_text() == edited
    assert "a.py: changed on disk while it was being fixed; left unchanged" in res.stderr
    assert res.returncode == 1
    assert [p.name for p in tmp_path.iterdir()] == ["a.py"]  # no temporary file left


TEMP = re.compile(r"\.tensorcopy-\d+-[0-9a-z_]+\.tmp")


def test_sigkill_leaves_no_truncated_file_and_the_next_run_no_temporary_one(tmp_path):
    """A SIGKILL cannot be held back: one that lands between naming a temporary file and the
    rename over its destination (two system calls) leaves that file. It never leaves a truncated
    file, and the next ``fix`` removes what a dead run left. This test once asserted no
    temporary file right after each kill, and failed in CI when a kill hit that instant."""
    for i in range(300):
        (tmp_path / f"m{i:03}.py").write_text(BAD * 20)
    fixed = FIXED * 20
    modules = [f"m{i:03}.py" for i in range(300)]
    for delay in (0.6, 0.9, 1.2, 1.5, 1.8):  # the whole run, workers included, killed with -9
        proc = subprocess.Popen([sys.executable, "-m", "flake8_tensorcopy", "fix", "-j", "2",
                                 str(tmp_path)], start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        try:
            os.killpg(proc.pid, 9)
        except ProcessLookupError:
            pass
        proc.wait()
        names = sorted(p.name for p in tmp_path.iterdir())
        assert [n for n in names if not TEMP.fullmatch(n)] == modules
        assert {(tmp_path / m).read_text() for m in modules} <= {BAD * 20, fixed}
    res = tensorcopy("fix", str(tmp_path))
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == modules
    assert {p.read_text() for p in tmp_path.iterdir()} == {fixed}


#: runs ``atomic_write`` on argv[1]; the process is killed (SIGKILL, sent to itself) or, with
#: argv[2] == "wait", holds on (marker file argv[3] written) right after the temporary file is
#: named and before the rename
KILLED_WRITER = """
import os, sys, time
from flake8_tensorcopy import writes
def stop(src, dst):
    if sys.argv[2] == "wait":
        open(sys.argv[3], "w").close()
        time.sleep(60)
    os.kill(os.getpid(), 9)
writes.os.replace = stop
writes.atomic_write(sys.argv[1], b"new\\n")
"""


def test_next_fix_removes_the_temporary_file_a_killed_run_left(tmp_path):
    (tmp_path / "a.py").write_text(BAD)
    (tmp_path / "b.py").write_text(BAD)
    res = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(tmp_path / "b.py"), "kill"],
                         capture_output=True)
    assert res.returncode == -9, res.stderr
    left = [p.name for p in tmp_path.iterdir() if TEMP.fullmatch(p.name)]
    assert len(left) == 1 and (tmp_path / left[0]).read_bytes() == b"new\n"
    (tmp_path / "b.py").write_text(FIXED)  # nothing to fix there: the directory is still swept
    res = tensorcopy("fix", str(tmp_path / "a.py"))
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py", "b.py"]
    assert (tmp_path / "a.py").read_text() == FIXED


def test_fix_leaves_the_temporary_file_of_a_live_writer(tmp_path):
    (tmp_path / "a.py").write_text(BAD)
    (tmp_path / "b.py").write_text("x = 1\n")
    marker = tmp_path.parent / "named"
    writer = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(tmp_path / "b.py"),
                               "wait", str(marker)])
    try:
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert marker.exists()
        res = tensorcopy("fix", str(tmp_path))
        assert res.returncode == 0, res.stderr
        assert len([p for p in tmp_path.iterdir() if TEMP.fullmatch(p.name)]) == 1
    finally:
        writer.kill()
        writer.wait()
    tensorcopy("fix", str(tmp_path))  # the writer is dead now: its file goes
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py", "b.py"]


# ------------------------------------------------------- 9: lines as the tokenizer splits them
@pytest.mark.parametrize("char", ["\f", "\x0b", "\x1c", "\u2028"])
def test_noqa_lines_are_split_as_the_tokenizer_does(tmp_path, char):
    src = (f"import torch\nt = torch.ones(2)\n# odd{char}character\n"
           "a = torch.tensor(t)  # noqa: TEN201\nb = torch.tensor(t)\n")
    f = tmp_path / "odd.py"
    f.write_text(src, encoding="utf-8")
    res = tensorcopy("check", "--output-format", "concise", str(f))
    ours = sorted(l for l in res.stdout.splitlines() if ": TEN" in l)
    theirs = sorted(flake8("--select", "TEN", str(f)).stdout.splitlines())
    assert ours == theirs == [f"{f}:5:5: TEN201 " + theirs[0].split(" TEN201 ")[1]]
    tensorcopy("fix", str(f))
    text = f.read_text(encoding="utf-8")
    assert "a = torch.tensor(t)  # noqa: TEN201\n" in text and "b = t.detach().clone()" in text


@pytest.mark.parametrize("char", ["\f", "\x0b", "\x1c", "\x85", "\u2028"])
def test_tree_reads_lines_as_the_tokenizer_splits_them(char):
    """The tree built from ``ast`` reads source lines by ``ast``'s line numbers (is a statement
    alone on its line, is an ``if`` an ``elif``): an odd character earlier in the file must not
    shift them. It once did: both fixes below were lost after a form feed."""
    body = ("def f(m: torch.nn.Linear):\n    if m.bias is None:\n        m.weight.data.mul_(2)\n"
            "    elif m.weight is not None:\n        m.weight.data.mul_(3)\n")
    plain = "import torch\n# odd_character\n" + body  # same length: same offsets
    odd = f"import torch\n# odd{char}character\n" + body
    assert [(d.line, d.code, d.message, d.fix) for d in lint_source(odd)] == \
        [(d.line, d.code, d.message, d.fix) for d in lint_source(plain)]
    fixed = fix_source(odd, unsafe=True).source
    assert fixed.count("no_grad():") == 2
    assert fixed.replace(f"# odd{char}character", "# odd_character") == \
        fix_source(plain, unsafe=True).source


# ------------------------------------------------------------------------- 11: deep nesting
def test_deep_nesting_is_reported_and_the_run_goes_on(tmp_path):
    for i in range(20):  # enough files for worker processes
        (tmp_path / f"m{i:02}.py").write_text(BAD)
    (tmp_path / "deep.py").write_text(deep())
    for args in (["-j", "2"], ["-j", "1"]):
        res = tensorcopy("check", "--output-format", "concise", *args, str(tmp_path))
        assert res.returncode == 1, res.stderr
        assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
        assert "deep.py: too deeply nested: 2000 levels of brackets (the limit is 200)" \
            in res.stderr
        assert res.stdout.count(": TEN201 ") == 20
    res = tensorcopy("fix", "-j", "2", str(tmp_path))
    assert res.returncode == 1 and "deep.py: too deeply nested" in res.stderr
    assert (tmp_path / "m00.py").read_text() == FIXED
    res = flake8("--select", "TEN,E999", str(tmp_path / "deep.py"))
    assert res.returncode == 1 and "Traceback" not in res.stderr and "TEN" not in res.stdout


# ----------------------------------------------------------------- 12: malformed notebooks
def test_malformed_notebook_is_one_error_line(tmp_path):
    nb = {"cells": [{"cell_type": "code", "source": ["x\n", 5]}], "metadata": {},
          "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "bad.ipynb").write_text(json.dumps(nb))
    (tmp_path / "a.py").write_text(BAD)
    res = tensorcopy("check", "--output-format", "concise", str(tmp_path))
    assert "Traceback" not in res.stderr
    assert res.stderr.strip() == (f"tensorcopy: error: {tmp_path / 'bad.ipynb'}: invalid notebook: "
                                  'cell 1: "source" is not a string or a list of strings')
    assert "a.py:3:5: TEN201" in res.stdout and res.returncode == 2


# ------------------------------------------------------------------------- 13: --timeout
@pytest.mark.parametrize("value", ["inf", "nan", "-1"])
def test_timeout_is_validated(tmp_path, value):
    (tmp_path / "a.py").write_text(BAD)
    for cmd in ("check", "fix"):
        res = tensorcopy(cmd, "--timeout", value, str(tmp_path / "a.py"))
        assert res.returncode == 2 and "Traceback" not in res.stderr
        assert "argument --timeout: must be a finite number of seconds" in res.stderr
    assert (tmp_path / "a.py").read_text() == BAD


# ------------------------------------------------- 14: the budget covers the native parser
def test_budget_holds_inside_the_native_parser(tmp_path):
    (tmp_path / "slow.py").write_text(SLOW)
    (tmp_path / "a.py").write_text(BAD)
    start = time.monotonic()
    res = tensorcopy("check", "--timeout", "1", str(tmp_path / "slow.py"), str(tmp_path / "a.py"))
    assert time.monotonic() - start < 8
    assert "slow.py: analysis exceeded the 1 s per-file budget; skipped" in res.stderr
    assert "cannot parse" not in res.stderr and "a.py:3:5: TEN201" in res.stdout
    # fix: the killed worker's file is untouched, no temporary file is left, and the output
    # printed before the replacement worker was forked is not printed twice
    (tmp_path / "z.py").write_text(BAD)
    res = tensorcopy("fix", "--diff", "--timeout", "1", "-j", "1", str(tmp_path))
    assert res.stdout.count("+++ b/") == 2 and res.stdout.count("a.py") == 2, res.stdout
    assert "slow.py: analysis exceeded the 1 s per-file budget" in res.stderr
    res = tensorcopy("fix", "--timeout", "1", str(tmp_path))
    assert (tmp_path / "slow.py").read_text() == SLOW and (tmp_path / "z.py").read_text() == FIXED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py", "slow.py", "z.py"]


# -------------------------------------------- 15: a file that cannot be analysed is reported
def test_syntax_error_without_rule_pattern_is_not_clean(tmp_path):
    (tmp_path / "broken.py").write_text("def f(:\n    pass\n")
    res = tensorcopy("check", str(tmp_path / "broken.py"))
    assert res.returncode == 1
    assert "broken.py: syntax error at 1:6" in res.stderr
    assert "All checks passed" not in res.stdout


@pytest.mark.parametrize("prefix", [
    "y = " + "a + " * 1500 + "1\n",  # valid Python nested too deeply to walk
], ids=["too-deep-to-walk"])
def test_valid_python_that_cannot_be_analysed_is_reported_by_check_and_flake8(tmp_path, prefix):
    f = tmp_path / "annotated.py"
    f.write_text(BAD + prefix)
    ours = tensorcopy("check", "--output-format", "concise", str(f))
    # flake8's own pyflakes gives up on this file before the plugin would: run the plugin as
    # flake8 does (its ``tree`` and ``lines``), printing what flake8 would
    plugin = subprocess.run([sys.executable, "-c", (
        "import ast, sys\nfrom flake8_tensorcopy.plugin import TensorCopyChecker\n"
        "lines = open(sys.argv[1]).readlines()\n"
        "for line, col, text, _ in TensorCopyChecker(ast.parse(''.join(lines)), lines).run():\n"
        "    print(f'{sys.argv[1]}:{line}:{col + 1}: {text}')\n"), str(f)],
        capture_output=True, text=True, timeout=120)
    assert ours.stdout.splitlines()[:1] == plugin.stdout.splitlines()
    assert plugin.stdout.startswith(f"{f}:1:1: TEN001 file could not be analysed")
    assert ours.returncode == 1
    doc = tensorcopy("explain", "TEN001")
    assert doc.returncode == 0 and doc.stdout.startswith("# TEN001 `not-analysed`")


def test_valid_python_libcst_rejected_is_analysed(tmp_path):
    """``(x): int = 1`` is valid Python that libcst 1.0.1 rejected (TEN001 then): the analysis
    no longer needs libcst, so the file's rules run, in check and flake8 alike."""
    f = tmp_path / "annotated.py"
    f.write_text(BAD + "(x): int = 1\n")
    ours = tensorcopy("check", "--output-format", "concise", str(f))
    theirs = flake8("--select", "TEN", str(f))
    assert ours.stdout.splitlines() == theirs.stdout.splitlines()
    assert theirs.stdout.startswith(f"{f}:3:5: TEN201") and "TEN001" not in theirs.stdout


# --------------------------------------------------- 16: drop only the fix that breaks code
def test_only_the_fix_that_would_not_parse_is_dropped(tmp_path):
    f = tmp_path / "a.py"
    f.write_text("import torch\nt = torch.ones(2)\n"
                 "x = t.clone(\n    memory_format=torch.preserve_format,  # why\n).detach()\n"
                 "y = torch.tensor(t)\n")
    res = tensorcopy("fix", str(f))
    text = f.read_text()
    compile(text, "a.py", "exec")
    assert "y = t.detach().clone()" in text  # the other fix is applied
    if ".detach()\n" in text:  # the TEN301 fix was refused: say which
        assert "a.py:3:5: TEN301 fix not applied: the fixed code would not parse" in res.stderr


# ------------------------------------------------------------- 17: --diff without final newline
def test_diff_applies_to_a_file_without_final_newline(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "a.py").write_text(BAD.rstrip("\n"))
    (work / "b.py").write_text(BAD + "x = t.clone().detach()")
    res = tensorcopy("fix", "--diff", "a.py", "b.py", cwd=work)
    assert "\\ No newline at end of file" in res.stdout
    patch = tmp_path / "p.diff"
    patch.write_text(res.stdout)
    for tool in (["patch", "-p1", "-i", str(patch)], ["git", "apply", str(patch)]):
        if not shutil.which(tool[0]):
            pytest.skip(f"{tool[0]} is not installed")
        copy = tmp_path / tool[0]
        shutil.copytree(work, copy)
        out = run(tool, cwd=copy)
        assert out.returncode == 0, out.stdout + out.stderr
        assert (copy / "a.py").read_text() == FIXED.rstrip("\n")
        assert (copy / "b.py").read_text() == FIXED + "x = t.detach().clone()"


# ----------------------------------------------------------- 18: messages and exit statuses
def test_no_all_checks_passed_after_error_lines(tmp_path):
    (tmp_path / "bad.py").write_bytes(b"import torch\nx = '\xff'\n")
    (tmp_path / "ok.py").write_text("x = 1\n")
    res = tensorcopy("check", str(tmp_path))
    assert res.returncode == 2 and "bad.py: cannot decode" in res.stderr
    assert "All checks passed" not in res.stdout
    assert "Could not check 1 path; see the errors above." in res.stdout


def test_check_does_not_say_file_left_unchanged(tmp_path):
    (tmp_path / "broken.py").write_text("import torch\ndef f(:\n")
    res = tensorcopy("check", str(tmp_path / "broken.py"))
    assert "syntax error" in res.stderr and "left unchanged" not in res.stderr
    res = tensorcopy("fix", str(tmp_path / "broken.py"))
    assert "syntax error" in res.stderr and "file left unchanged" in res.stderr


@pytest.mark.skipif(not shutil.which("setpriv") or os.geteuid() != 0,
                    reason="needs root and setpriv to drop the override of file permissions")
def test_unreadable_directory_is_an_error(tmp_path):
    locked = tmp_path / "pkg" / "locked"
    locked.mkdir(parents=True)
    (locked / "a.py").write_text(BAD)
    (tmp_path / "pkg" / "ok.py").write_text("x = 1\n")
    os.chmod(locked, 0)
    try:
        res = run(["setpriv", "--bounding-set=-dac_override,-dac_read_search", sys.executable,
                   "-m", "flake8_tensorcopy", "check", str(tmp_path / "pkg")])
    finally:
        os.chmod(locked, 0o755)
    assert res.returncode == 2
    assert f"tensorcopy: error: {locked}: cannot read directory: Permission denied" in res.stderr


def test_dangling_symlink_in_a_directory_is_a_warning(tmp_path):
    (tmp_path / "ok.py").write_text("x = 1\n")
    (tmp_path / "gone.py").symlink_to(tmp_path / "nowhere.py")
    res = tensorcopy("check", str(tmp_path))
    assert res.returncode == 0, res.stderr
    assert "gone.py: broken symbolic link; skipped" in res.stderr
    assert "All checks passed (1 file)." in res.stdout


@pytest.mark.parametrize("option", ["--select", "--ignore"])
def test_unknown_code_prefix_is_a_usage_error(tmp_path, option):
    (tmp_path / "a.py").write_text(BAD)
    res = tensorcopy("check", option, "XYZ", str(tmp_path / "a.py"))
    assert res.returncode == 2
    assert f"tensorcopy: error: {option} XYZ matches no code" in res.stderr
    assert tensorcopy("check", option, "TEN2", str(tmp_path / "a.py")).returncode in (0, 1)


def test_a_path_given_twice_counts_once(tmp_path):
    (tmp_path / "a.py").write_text(BAD)
    nb = {"cells": [{"cell_type": "code", "source": BAD, "metadata": {}, "outputs": []}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "n.ipynb").write_text(json.dumps(nb))
    res = tensorcopy("check", "a.py", "a.py", "./a.py", "n.ipynb", "n.ipynb", ".", cwd=tmp_path)
    assert "Found 2 diagnostics in 2 file(s)" in res.stdout, res.stdout


def test_a_file_reached_by_several_paths_counts_once(tmp_path):
    """A file is one file whatever path the walk finds it by: a symbolic link to it beside it,
    the same folder named again through a link to it, or named alone."""
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "a.py").write_text(BAD)
    (tree / "sub" / "b.py").write_text(BAD)
    (tree / "alias.py").symlink_to(tree / "sub" / "a.py")
    (tmp_path / "door").symlink_to(tree)
    res = tensorcopy("check", "tree", "door/sub", "tree/sub/b.py", cwd=tmp_path)
    assert "Found 2 diagnostics in 2 file(s)" in res.stdout, res.stdout


def test_notebooks_are_not_called_fixable_and_fix_says_it_leaves_them(tmp_path):
    nb = {"cells": [{"cell_type": "code", "source": BAD, "metadata": {}, "outputs": []}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    f = tmp_path / "n.ipynb"
    f.write_text(json.dumps(nb))
    res = tensorcopy("check", str(f))
    assert "fixable" not in res.stdout and "[*]" not in res.stdout and res.returncode == 1
    before = f.read_bytes()
    res = tensorcopy("fix", str(f))
    assert f.read_bytes() == before
    assert "n.ipynb: notebooks are not fixed; left unchanged" in res.stderr
    assert "1 diagnostic(s) remain." in res.stderr and res.returncode == 1


def test_too_deep_to_walk_is_reported_not_called_clean(tmp_path):
    """Python parses it but the walk cannot go that deep: TEN001, never "All checks passed".
    (flake8 itself is not asked here: at this depth its own pyflakes check already fails.)"""
    from flake8_tensorcopy.engine import analyze

    src = BAD + "y = " + "-" * 500 + "t.clone().detach()\n"
    assert [d.code for d in analyze(src)] == ["TEN001"]
    f = tmp_path / "deep.py"
    f.write_text(src)
    ours = tensorcopy("check", "--output-format", "concise", str(f))
    assert ours.returncode == 1
    assert ours.stdout.startswith(f"{f}:1:1: TEN001 file could not be analysed"), ours.stdout
