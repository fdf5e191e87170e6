"""Issue 22 items 9, 11, 12, 13: standard input named by --stdin-filename, --diff output for odd
encodings and line endings, notebooks with IPython syntax or malformed cells, and reports that
stay valid JSON/SARIF whatever the path or message holds. Each test drives the real CLI (and
git / patch, jsonschema) in subprocesses."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from .conftest import run

BAD = "import torch\nt = torch.ones(2)\nc = torch.tensor(t)\nd = t.clone().detach()\n"


def tc(*args, input=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "flake8_tensorcopy", *args], input=input,
                          capture_output=True, cwd=cwd, timeout=120)


# -------------------------------------------------------------- item 9: --stdin-filename
@pytest.fixture
def ignoring(tmp_path):
    """A project whose per-file-ignores turn TEN201 off under a/."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tensorcopy]\nper-file-ignores = {"a/*.py" = ["TEN201"]}\n')
    (tmp_path / "a").mkdir()
    return tmp_path


def test_check_stdin_filename_applies_per_file_ignores(ignoring):
    res = tc("check", "-", "--stdin-filename", "a/b.py", input=BAD.encode(), cwd=ignoring)
    out = res.stdout.decode()
    assert "a/b.py:4:5: TEN301" in out and "TEN201" not in out, out
    assert res.returncode == 1
    # from a subdirectory, the configuration is found from the name given
    res = tc("check", "-", "--stdin-filename", "b.py", input=BAD.encode(), cwd=ignoring / "a")
    assert "b.py:4:5: TEN301" in res.stdout.decode() and "TEN201" not in res.stdout.decode()
    # elsewhere, TEN201 stays
    res = tc("check", "-", "--stdin-filename", "c.py", input=BAD.encode(), cwd=ignoring)
    assert "c.py:3:5: TEN201" in res.stdout.decode()


def test_fix_stdin_filename_applies_per_file_ignores(ignoring):
    res = tc("fix", "-", "--stdin-filename", "a/b.py", input=BAD.encode(), cwd=ignoring)
    assert res.returncode == 0, res.stderr
    assert res.stdout.decode() == BAD.replace("t.clone().detach()", "t.detach().clone()")
    res = tc("fix", "--diff", "-", "--stdin-filename", "a/b.py", input=BAD.encode(),
             cwd=ignoring)
    out = res.stdout.decode()
    assert out.startswith("--- a/a/b.py\n+++ b/a/b.py\n"), out
    assert "+d = t.detach().clone()" in out and "-c = torch.tensor(t)" not in out, out


# ------------------------------------------------------ item 11: --diff applies, whatever the bytes
def _variants():
    body = BAD.replace("import torch\n", "import torch\ns = 'café'\n")
    latin = ("# -*- coding: latin-1 -*-\n" + body).encode("latin-1")
    return {
        "bom": b"\xef\xbb\xbf" + body.encode(),
        "bom-first-line-changed": b"\xef\xbb\xbf" + b"import torch; t = torch.ones(2); "
                                                    b"c = torch.tensor(t)\n",
        "latin-1 cookie": latin,
        "cr only": body.replace("\n", "\r").encode(),
        "crlf": body.replace("\n", "\r\n").encode(),
        "mixed": b"import torch\r\ns = 'caf\xc3\xa9'\rt = torch.ones(2)\nc = torch.tensor(t)\r\n"
                 b"d = t.clone().detach()\r",
        "no final newline, cr": body.rstrip("\n").replace("\n", "\r").encode(),
    }


VARIANTS = _variants()


@pytest.mark.parametrize("tool", ["git", "patch"])
def test_diff_applies_with_git_and_patch_for_any_encoding_and_line_ending(tmp_path, tool):
    if not shutil.which(tool):
        pytest.skip(f"{tool} is not installed")
    work = tmp_path / "work"
    work.mkdir()
    names = {}
    for i, (kind, data) in enumerate(sorted(VARIANTS.items())):
        names[kind] = f"f{i}.py"
        (work / names[kind]).write_bytes(data)
    fixed = tmp_path / "fixed"
    shutil.copytree(work, fixed)
    res = tc("fix", "--no-cache", "-j", "1", ".", cwd=fixed)
    assert res.returncode == 0, res.stderr
    diff = tc("fix", "--no-cache", "-j", "1", "--diff", ".", cwd=work)
    assert diff.returncode == 1, diff.stderr
    patch = tmp_path / "p.diff"
    patch.write_bytes(diff.stdout)
    if tool == "git":
        assert run(["git", "init", "-q"], cwd=work).returncode == 0
        out = subprocess.run(["git", "apply", "--verbose", str(patch)], cwd=work,
                             capture_output=True)
    else:
        out = subprocess.run(["patch", "-p1", "-i", str(patch)], cwd=work,
                             capture_output=True)
    assert out.returncode == 0, (out.stdout + out.stderr).decode(errors="replace")
    for kind, name in names.items():  # exactly what `fix` writes, byte for byte
        assert (work / name).read_bytes() == (fixed / name).read_bytes(), kind
        assert (work / name).read_bytes() != VARIANTS[kind], kind
