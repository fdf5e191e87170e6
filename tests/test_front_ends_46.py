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
