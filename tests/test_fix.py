"""`tensorcopy fix`, the fixer API and the codemod: rewrites that keep everything else intact."""
import os
import shutil
import stat
import sys

import pytest

from flake8_tensorcopy.lint import LintError
from flake8_tensorcopy.fixes import apply_edits, fix_source
from flake8_tensorcopy.diagnostics import Edit
from flake8_tensorcopy.rules import ALL_RULES

from .conftest import ROOT, run, tensorcopy

PAIRS = [(r.code, ex) for r in ALL_RULES for ex in r.invalid if ex.after is not None]


@pytest.mark.parametrize("code,example", PAIRS, ids=[f"{c}-{i}" for i, (c, _) in enumerate(PAIRS)])
def test_rule_examples_fix_to_their_after(code, example):
    result = fix_source(example.before, unsafe=True, select=(code,))
    assert result.source == example.after
    again = fix_source(result.source, unsafe=True, select=(code,))
    assert again.source == result.source and not again.changed
    if example.unsafe:
        assert not fix_source(example.before, unsafe=False, select=(code,)).changed


def test_fix_keeps_crlf_comments_and_quotes():
    src = ("import torch  # keep\r\n\r\nt = torch.ones(2)   \r\n"
           "c = torch.tensor(t)  # a comment\r\ns = 'single'\r\n")
    out = fix_source(src).source
    assert out == src.replace("torch.tensor(t)", "t.detach().clone()")


def test_fix_inside_no_grad_only_drops_data():
    src = ("import torch\n\ndef f(model):\n    with torch.no_grad():\n"
           "        for p in model.parameters():\n            p.data.mul_(0.5)\n")
    out = fix_source(src, unsafe=True).source
    assert out == src.replace("p.data.mul_", "p.mul_")


def test_fix_no_grad_decorated_function():
    src = ("import torch\n\n@torch.no_grad()\ndef f(model):\n"
           "    for p in model.parameters():\n        p.data.zero_()\n")
    assert fix_source(src, unsafe=True).source == src.replace("p.data.zero_", "p.zero_")


def test_fix_respects_torch_alias_and_adds_missing_import():
    src = "import torch as th\n\ndef f(model):\n    for p in model.parameters():\n        p.data.zero_()\n"
    out = fix_source(src, unsafe=True).source
    assert "with th.no_grad():\n            p.zero_()" in out and "import torch\n" not in out
    src = '"""Doc."""\nfrom __future__ import annotations\nfrom torch import nn\n\n' \
          "def f(m: nn.Module):\n    for p in m.parameters():\n        p.data.zero_()\n"
    out = fix_source(src, unsafe=True).source
    assert out.startswith('"""Doc."""\nfrom __future__ import annotations\nimport torch\nfrom torch import nn\n')
    assert "with torch.no_grad():" in out
    compile(out, "x.py", "exec")


def test_no_wrap_for_statement_sharing_a_line():
    src = "import torch\n\ndef f(model):\n    for p in model.parameters(): p.data.zero_()\n"
    result = fix_source(src, unsafe=True)
    assert result.source == src and [d.code for d in result.remaining] == ["TEN102"]


def test_overlapping_fixes_converge():
    src = "import torch\n\ndef f(t: torch.Tensor):\n    return torch.tensor(t.data.clone().detach())\n"
    out = fix_source(src, unsafe=True)
    assert out.source.endswith("return t.detach().detach().clone().detach().clone()\n") or \
        "torch.tensor" not in out.source
    assert fix_source(out.source, unsafe=True).source == out.source
    compile(out.source, "x.py", "exec")


def test_unparseable_source_is_refused():
    with pytest.raises(LintError):
        fix_source("import torch\ndef f(:\n")


def test_apply_edits_dedupes_identical_inserts():
    assert apply_edits("abc", [Edit(0, 0, "X"), Edit(0, 0, "X"), Edit(1, 2, "B")]) == "XaBc"


# ------------------------------------------------------------------------------------- CLI
BAD = "import torch\nt = torch.ones(2)\nc = torch.tensor(t)\nd = torch.Tensor(t)\n"


def test_cli_fix_in_place_summary_and_exit_code(write):
    path = write("m.py", BAD)
    os.chmod(path, 0o640)
    res = tensorcopy("fix", str(path))
    assert res.returncode == 1  # TEN203 remains
    assert "Fixed 1 diagnostic(s) in 1 file(s) (TEN201: 1)" in res.stderr
    assert "1 diagnostic(s) remain" in res.stderr
    assert path.read_text() == BAD.replace("torch.tensor(t)", "t.detach().clone()")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert not [p for p in os.listdir(path.parent) if p.startswith(".tensorcopy-")]
    res = tensorcopy("fix", str(path), "--ignore", "TEN203")
    assert res.returncode == 0


def test_cli_fix_diff_writes_nothing(write):
    path = write("m.py", BAD)
    res = tensorcopy("fix", "--diff", str(path))
    assert "-c = torch.tensor(t)" in res.stdout and "+c = t.detach().clone()" in res.stdout
    assert path.read_text() == BAD


def test_cli_fix_stdin_to_stdout():
    res = tensorcopy("fix", "-", input=BAD)
    assert res.stdout == BAD.replace("torch.tensor(t)", "t.detach().clone()")


def test_cli_fix_unsafe_hint(write):
    path = write("m.py", "import torch\nx = torch.ones(2)\ny = x.detach()\ny.add_(1)\nprint(y)\n")
    res = tensorcopy("fix", str(path))
    assert "fixable with --unsafe-fixes" in res.stderr and res.returncode == 1
    res = tensorcopy("fix", "--unsafe-fixes", str(path))
    assert res.returncode == 0 and "x.detach().clone()" in path.read_text()


def test_cli_fix_keeps_bom_cookie_and_encoding(write):
    src = "# -*- coding: latin-1 -*-\nimport torch\ns = 'caf\xe9'\nt = torch.ones(1)\nc = torch.tensor(t)\n"
    path = write("latin.py", src.encode("latin-1"), mode="wb")
    tensorcopy("fix", str(path))
    assert path.read_bytes() == src.replace("torch.tensor(t)", "t.detach().clone()").encode("latin-1")
    bom = write("bom.py", b"\xef\xbb\xbf" + BAD.encode(), mode="wb")
    tensorcopy("fix", str(bom))
    assert bom.read_bytes().startswith(b"\xef\xbb\xbfimport torch")
    assert b"t.detach().clone()" in bom.read_bytes()


def test_cli_fix_bad_paths_do_not_stop_the_others(write, tmp_path):
    good = write("good.py", BAD)
    broken = write("broken.py", "import torch\nt = torch.ones(1)\nc = torch.tensor(t)\ndef f(:\n")
    readonly = write("ro/readonly.py", BAD)
    os.chmod(readonly.parent, 0o500)
    try:
        res = tensorcopy("fix", str(tmp_path / "missing.py"), str(broken), str(readonly), str(good))
    finally:
        os.chmod(readonly.parent, 0o700)
    assert res.returncode == 2
    assert "missing.py: no such file or directory" in res.stderr
    assert "broken.py" in res.stderr and "left unchanged" in res.stderr
    assert "Traceback" not in res.stderr
    assert "t.detach().clone()" in good.read_text()
    assert broken.read_text().endswith("def f(:\n") and "torch.tensor(t)" in broken.read_text()
    if os.geteuid() != 0:  # root can write anyway
        assert "readonly.py: cannot write" in res.stderr


def test_cli_fix_through_symlink_keeps_the_link(write, tmp_path):
    target = write("real.py", BAD)
    link = tmp_path / "link.py"
    link.symlink_to(target)
    tensorcopy("fix", str(link))
    assert link.is_symlink()
    assert "t.detach().clone()" in target.read_text()


def test_cli_walks_directories_with_excludes(write, tmp_path):
    write("pkg/a.py", BAD)
    write("pkg/skip/b.py", BAD)
    write("pkg/gen/c.py", BAD)
    write("pkg/.venv/d.py", BAD)
    write("pkg/.gitignore", "gen/\n")
    res = tensorcopy("check", "--exclude", "skip", "--output-format", "concise", str(tmp_path / "pkg"))
    assert "a.py" in res.stdout
    assert "b.py" not in res.stdout and "c.py" not in res.stdout and "d.py" not in res.stdout


def test_excludes_match_names_and_paths_not_names_that_lose_their_dot(write, tmp_path):
    """``.tox`` and ``.eggs`` are excluded by default, ``tox/`` and ``eggs/`` are ordinary
    folders (an exclude written from the top, ``./x``, still means the folder ``x``)."""
    for folder in ("tox", "eggs", "git", "hg", ".tox", ".eggs", "src/gen", "src/keep",
                   "lib.egg-info"):
        write(f"pkg/{folder}/m.py", BAD)
    res = tensorcopy("check", "--exclude", "./src/gen", "--output-format", "concise",
                     str(tmp_path / "pkg"))
    found = {os.path.relpath(os.path.dirname(line.split(":")[0]), str(tmp_path / "pkg"))
             for line in res.stdout.splitlines() if ": TEN" in line}
    assert found == {"tox", "eggs", "git", "hg", os.path.join("src", "keep")}, res.stdout


def test_gitignore_lines_match_names_and_paths(write, tmp_path):
    """A ``.gitignore`` line skips files and folders by name or by path from the top; a line
    ending in ``/`` only folders."""
    write("pkg/.gitignore", "*_gen.py\nsub/skip.py\nout/\nlog.py/\n")
    for name in ("a.py", "a_gen.py", "sub/b_gen.py", "sub/skip.py", "sub/keep.py", "out/c.py",
                 "deep/out/d.py", "log.py"):
        write(f"pkg/{name}", BAD)
    res = tensorcopy("check", "--output-format", "concise", str(tmp_path / "pkg"))
    found = {os.path.relpath(line.split(":")[0], str(tmp_path / "pkg")).replace(os.sep, "/")
             for line in res.stdout.splitlines() if ": TEN" in line}
    assert found == {"a.py", "sub/keep.py", "log.py"}, res.stdout


def test_cli_fix_thousands_of_files(tmp_path):
    for i in range(1500):
        (tmp_path / f"m{i}.py").write_text(BAD if i % 3 == 0 else "x = 1\n")
    res = tensorcopy("fix", str(tmp_path))
    assert "Fixed 500 diagnostic(s) in 500 file(s)" in res.stderr
    assert res.returncode == 1


def test_fixing_the_examples_leaves_only_rules_without_fix(tmp_path):
    shutil.copytree(os.path.join(ROOT, "examples"), tmp_path / "examples")
    tensorcopy("fix", "--unsafe-fixes", str(tmp_path / "examples"))
    res = tensorcopy("check", "--output-format", "concise", str(tmp_path / "examples"))
    codes = sorted({line.split(": ")[1].split()[0] for line in res.stdout.splitlines() if ": TEN" in line})
    assert codes == ["TEN103", "TEN203"]
    for name in os.listdir(tmp_path / "examples"):
        compile((tmp_path / "examples" / name).read_text(), name, "exec")
    res2 = tensorcopy("fix", "--unsafe-fixes", str(tmp_path / "examples"))
    assert "Fixed 0 diagnostic(s)" in res2.stderr


def test_libcst_codemod_command(write):
    path = write("m.py", BAD)
    res = run([sys.executable, "-m", "libcst.tool", "codemod", "-x", "--no-format",
               "flake8_tensorcopy.codemod.FixTensorCopy", str(path)], cwd=str(path.parent))
    assert res.returncode == 0, res.stderr
    assert path.read_text() == BAD.replace("torch.tensor(t)", "t.detach().clone()")
    path2 = write("n.py", "import torch\nx = torch.ones(2)\ny = x.detach()\ny.add_(1)\nprint(y)\n")
    res = run([sys.executable, "-m", "libcst.tool", "codemod", "-x", "--no-format",
               "flake8_tensorcopy.codemod.FixTensorCopy", "--unsafe-fixes", str(path2)],
              cwd=str(path2.parent))
    assert "x.detach().clone()" in path2.read_text(), res.stderr
