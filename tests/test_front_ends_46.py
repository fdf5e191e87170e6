"""Issue 46, "Front ends, cache and fixer" and "Small things": each promise the README makes,
driven through the real front end (``tensorcopy``, flake8, ``patch``, a fresh interpreter)."""
import os
import shutil
import subprocess
import sys

import pytest

from .conftest import ROOT, flake8, run, tensorcopy


# -- a fix keeps every byte it does not change ----------------------------------------------------

BLACK_STYLE = (
    "import torch\n\n\n"
    "def train(model, opt, batches):\n"
    "    total = 0\n"
    "    for x, n in batches:\n"
    "        loss = model(x).sum()\n"
    "        loss.backward()\n"
    "        opt.step()\n"
    "        total += (\n"
    "            loss * n  # comment\n"
    "        )\n"
    "    return total\n"
)


def test_ten501_fix_of_a_parenthesised_value_writes_its_parentheses_and_comment_once(tmp_path):
    path = tmp_path / "train.py"
    path.write_text(BLACK_STYLE)
    done = tensorcopy("fix", "--unsafe-fixes", "--no-cache", str(path))
    assert done.returncode == 0, done.stderr
    assert path.read_text() == BLACK_STYLE.replace("        )\n    return",
                                                   "        ).detach()\n    return")


def test_a_replaced_node_copied_with_its_parentheses_replaces_them_too():
    """The edit machinery, not one rule: a replace whose text copies the node's enclosing
    parentheses (``Src`` of its outer span) covers that span, for every rule that does it."""
    from flake8_tensorcopy.fixes import fix_source

    src = ("import torch\n\ndef f(model, opt, xs):\n    out = []\n    for x in xs:\n"
           "        loss = model(x).sum()\n        loss.backward()\n        opt.step()\n"
           "        out.append((  # first\n            loss  # second\n        ))\n    return out\n")
    fixed = fix_source(src, unsafe=True, select=("TEN501",)).source
    assert fixed == src.replace("        ))\n", "        ).detach())\n")
    compile(fixed, "f.py", "exec")


# -- the cache never answers for another layout --------------------------------------------------

USER = ("import torch\nfrom models import make\n\nt = make()\n\ndef f():\n"
        "    return torch.tensor(t)\n")
MODELS = "import torch\n\ndef make():\n    return torch.zeros(3)\n"


def _check(cwd, *paths):
    return tensorcopy("check", "--output-format", "concise", *(paths or (".",)), cwd=str(cwd))


def test_cache_sees_a_src_folder_created_after_a_cached_run(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.tensorcopy]\n")
    (tmp_path / "user.py").write_text(USER)
    first = _check(tmp_path)
    assert first.returncode == 0 and "TEN201" not in first.stdout, first.stdout + first.stderr
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "models.py").write_text(MODELS)
    second = _check(tmp_path, "user.py")
    assert "user.py:7:12: TEN201" in second.stdout, second.stdout + second.stderr
    assert second.stdout == _check(tmp_path, "--no-cache", "user.py").stdout


def test_cache_sees_a_nested_git_repository_created_after_a_cached_run(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.tensorcopy]\n")
    (tmp_path / "models.py").write_text(MODELS)
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "user.py").write_text(USER)
    first = _check(tmp_path, "app")
    assert "user.py:7:12: TEN201" in first.stdout, first.stdout + first.stderr
    git = shutil.which("git")
    if git:
        subprocess.run([git, "init", "-q", "app"], cwd=str(tmp_path), check=True)
    else:  # what ``git init`` makes that decides the project root
        (tmp_path / "app" / ".git").mkdir()
    second = _check(tmp_path, "app")
    assert "TEN201" not in second.stdout, second.stdout + second.stderr
    assert second.stdout == _check(tmp_path, "--no-cache", "app").stdout
    shutil.rmtree(str(tmp_path / "app" / ".git"))  # and back: the project's root again
    third = _check(tmp_path, "app")
    assert "user.py:7:12: TEN201" in third.stdout, third.stdout + third.stderr


# -- flake8 reads tensorcopy-source-roots as relative to its configuration file -------------------

@pytest.mark.parametrize("roots", ["lib", "./lib", "lib/"])
def test_flake8_source_roots_in_setup_cfg_are_relative_to_its_folder(tmp_path, roots):
    (tmp_path / "setup.cfg").write_text(f"[flake8]\ntensorcopy-source-roots = {roots}\n")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "models.py").write_text(MODELS)
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "user.py").write_text(USER)
    at_top = flake8("--select", "TEN", ".", cwd=str(tmp_path))
    assert "user.py:7:12: TEN201" in at_top.stdout, at_top.stdout + at_top.stderr
    below = flake8("--select", "TEN", ".", cwd=str(tmp_path / "app"))
    assert below.stdout.strip() == "./user.py:7:12: TEN201 " + at_top.stdout.split(" TEN201 ")[1].strip()


def test_flake8_source_roots_on_the_command_line_are_relative_to_the_working_directory(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "models.py").write_text(MODELS)
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "user.py").write_text(USER)
    found = flake8("--select", "TEN", "--tensorcopy-source-roots", "../lib", ".",
                   cwd=str(tmp_path / "app"))
    assert "user.py:7:12: TEN201" in found.stdout, found.stdout + found.stderr


# -- # noqa and # flake8: noqa, read as flake8 reads them -----------------------------------------

def _same_as_flake8(tmp_path, name, data):
    """``check`` and flake8 report the same lines of the file ``name`` (bytes ``data``)."""
    path = tmp_path / name
    path.write_bytes(data)
    by_flake8 = flake8("--select", "TEN", name, cwd=str(tmp_path))
    by_check = tensorcopy("check", "--no-cache", "--output-format", "concise", name,
                          cwd=str(tmp_path))
    lines = sorted(line.split(" ")[0] for line in by_flake8.stdout.splitlines())
    assert sorted(line.split(" ")[0] for line in by_check.stdout.splitlines()) == lines, \
        (by_flake8.stdout, by_check.stdout, by_check.stderr)
    return lines


@pytest.mark.parametrize("newline", ["\r", "\n", "\r\n"])
def test_noqa_after_a_multiline_string_in_any_line_endings(tmp_path, newline):
    src = newline.join(["import torch", "t = torch.ones(3)",
                        'c = torch.tensor(t); doc = """a', 'b"""  # noqa',
                        "d = torch.tensor(t)", ""])
    assert _same_as_flake8(tmp_path, "m.py", src.encode()) == ["m.py:5:5:"]


def test_noqa_after_a_backslash_continuation_with_cr_line_endings(tmp_path):
    src = "import torch\rt = torch.ones(3)\rc = torch.tensor(t) + \\\r    1  # noqa\r"
    assert _same_as_flake8(tmp_path, "m.py", src.encode()) == []


FILE_WIDE = "import torch\nt = torch.ones(3)\n{line}\nc = torch.tensor(t)\n"


@pytest.mark.parametrize("line,skipped", [
    ("# flake8: noqa", True),
    ("   # FLAKE8: NOQA", True),
    ("# flake8=noqa", True),
    ("# flake8: noqa: TEN201", True),  # flake8 skips the file whatever codes follow
    ("# flake8: noqa: E501", True),
    ("x = 1  # flake8: noqa", False),  # after code: not a file-wide comment, and no ``# noqa``
    ("#flake8: noqa", False),
])
def test_a_flake8_noqa_line_skips_the_file_in_every_front_end(tmp_path, line, skipped):
    src = FILE_WIDE.format(line=line)
    assert _same_as_flake8(tmp_path, "m.py", src.encode()) == ([] if skipped else ["m.py:4:5:"])
    fixed = tensorcopy("fix", "--no-cache", "m.py", cwd=str(tmp_path))
    assert fixed.returncode == 0, fixed.stderr
    after = (tmp_path / "m.py").read_text()
    assert (after == src) is skipped, after


def test_a_file_flake8_skips_is_not_analysed_so_a_syntax_error_is_not_reported(tmp_path):
    (tmp_path / "m.py").write_text("# flake8: noqa\nimport torch\ndef f(:\n")
    assert flake8("--select", "TEN,E999", "m.py", cwd=str(tmp_path)).stdout == ""
    done = tensorcopy("check", "--no-cache", "m.py", cwd=str(tmp_path))
    assert done.returncode == 0 and "m.py" not in done.stdout, done.stdout + done.stderr


# -- --diff applies with patch -p1 and git apply, whatever the file's name ------------------------

NAMES = ["my file.py", "sub dir/m.py", "tab\there.py", 'quo"te.py', "back\\slash.py",
         "caf\u00e9 x.py", "plain.py"]


@pytest.mark.skipif(shutil.which("patch") is None, reason="needs the patch program")
@pytest.mark.parametrize("name", NAMES)
def test_diff_of_a_file_with_blanks_or_quotes_in_its_name_applies_with_patch(tmp_path, name):
    src = "import torch\nt = torch.ones(3)\nc = torch.tensor(t)\n"
    for tool in ("patch", "git"):
        if tool == "git" and shutil.which("git") is None:
            continue
        work = tmp_path / tool
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_text(src)
        diff = tensorcopy("fix", "--no-cache", "--diff", name, cwd=str(work))
        assert diff.returncode == 1 and diff.stdout.startswith("--- "), diff.stdout + diff.stderr
        if tool == "patch":
            applied = run(["patch", "-p1", "--batch", "--forward"], input=diff.stdout,
                          cwd=str(work))
        else:
            subprocess.run(["git", "init", "-q", "."], cwd=str(work), check=True)
            applied = run(["git", "apply", "-"], input=diff.stdout, cwd=str(work))
        assert applied.returncode == 0, (tool, diff.stdout, applied.stdout, applied.stderr)
        assert (work / name).read_text() == src.replace("torch.tensor(t)", "t.detach().clone()")


# -- the benchmarks name no folder of one machine -------------------------------------------------

BENCH = os.path.join(ROOT, "benchmarks")
SCORE25 = os.path.join(BENCH, "precision", "score_issue25.py")


def test_no_benchmark_script_or_manifest_names_this_machines_folders():
    named = []
    for dirpath, dirs, files in os.walk(BENCH):
        # benchmarks/.work (ignored by git) holds the virtual environments run.py makes here:
        # their pyvenv.cfg names this machine's interpreter, and no clean checkout has them
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for f in files:
            if f.endswith((".py", ".toml", ".cfg", ".sh", ".json")):
                with open(os.path.join(dirpath, f), encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                if "/work/" in text or "'/work'" in text or '"/work"' in text:
                    named.append(os.path.relpath(os.path.join(dirpath, f), ROOT))
    assert named == []


def test_score_issue25_takes_its_roots_as_arguments_or_from_the_environment(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "TENSORCOPY_CORPORA"}
    bare = run([sys.executable, SCORE25], env=env)
    assert bare.returncode == 2 and "TENSORCOPY_CORPORA" in bare.stderr, bare.stderr
    env["TENSORCOPY_CORPORA"] = str(tmp_path / "absent")
    from_env = run([sys.executable, SCORE25], env=env)
    assert from_env.returncode == 1, from_env.stderr
    assert from_env.stderr.strip() == f"score_issue25.py: {tmp_path / 'absent'} is not a folder"


# -- no .data fix on a lazy layer's parameter, and the message says why ---------------------------

LAZY = (
    "import torch\nfrom torch import nn\n\n\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.net = nn.{layer}\n"
    "        self.norm = nn.Linear(3, 4)\n\n"
    "    def reset(self):\n"
    "        self.net.bias.data.fill_(0)\n"
    "        nn.init.zeros_(self.net.weight.data)\n"
    "        self.norm.bias.data.fill_(0)\n"
    "        return self.net.weight.data.numel()\n\n\n"
    "print(Net().reset())\n"
)


@pytest.mark.parametrize("layer", ["LazyLinear(4)", "LazyConv2d(4, 3)", "LazyBatchNorm1d()"])
def test_no_data_fix_on_a_lazy_layers_parameter(tmp_path, layer):
    """The original runs (``.data`` of an ``UninitializedParameter`` is an empty tensor); a fix
    without ``.data`` would raise ``ValueError``: none is offered, the message says why, and the
    ordinary layer's parameter beside it is still fixed; the fixed program runs as before."""
    pytest.importorskip("torch")
    src = LAZY.format(layer=layer)
    path = tmp_path / "net.py"
    path.write_text(src)
    before = run([sys.executable, str(path)], cwd=str(tmp_path))
    assert before.returncode == 0 and before.stdout == "0\n", before.stderr
    check = tensorcopy("check", "--no-cache", str(path))
    lines = [line for line in check.stdout.splitlines() if "TEN" in line]
    lazy = [line for line in lines if "`self.net." in line]
    assert [line.split(" ")[1] for line in lazy] == ["TEN102", "TEN102", "TEN101"], check.stdout
    for line in lazy:
        assert "no fix: `self.net` is a lazy module" in line and "UninitializedParameter" in line
        assert "[" not in line.rsplit("`", 1)[1], line  # no fix tag
    assert any("`self.norm.bias.data`" in line and "[unsafe fix]" in line for line in lines)
    fixed = tensorcopy("fix", "--no-cache", "--unsafe-fixes", str(path))
    assert fixed.returncode == 1, fixed.stderr  # the lazy diagnostics remain
    out = path.read_text()
    assert out.count(".data") == 3 and "self.norm.bias.fill_(0)" in out, out
    after = run([sys.executable, str(path)], cwd=str(tmp_path))
    assert after.returncode == 0 and after.stdout == before.stdout, after.stderr


# -- examples/: every rule fires there, as README's quick start says -------------------------------

def test_every_rule_fires_on_the_examples_through_flake8():
    from flake8_tensorcopy.rules import ALL_RULES

    done = flake8("--select", "TEN", "examples/", cwd=ROOT)
    assert done.returncode == 1, done.stderr
    fired = {line.split(" ")[1] for line in done.stdout.splitlines()}
    assert fired == {r.code for r in ALL_RULES}, done.stdout
