"""The pre-commit hooks, run for real with `pre-commit try-repo` on a throwaway repository."""
import json
import os
import shutil
import subprocess

import pytest
import yaml

from .conftest import ROOT, run

PRE_COMMIT = shutil.which("pre-commit")
pytestmark = pytest.mark.skipif(PRE_COMMIT is None, reason="pre-commit is not installed")

BAD = "import torch\n\n\ndef f():\n    t = torch.ones(3)\n    return torch.tensor(t), t.clone().detach()\n"


def test_hook_manifest():
    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml")) as fh:
        hooks = {h["id"]: h for h in yaml.safe_load(fh)}
    assert set(hooks) == {"tensorcopy", "tensorcopy-fix"}
    for h in hooks.values():
        assert h["language"] == "python"
        assert h["types_or"] == ["python", "pyi", "jupyter"]  # check reads notebooks
        assert h["require_serial"] is True
        assert h["minimum_pre_commit_version"]


def _repository(tmp_path, name, text):
    """A throwaway git repository holding one staged file; (its folder, the environment)."""
    repo = tmp_path / "project"
    repo.mkdir()
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "cache"),
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True, env=env)
    (repo / name).write_text(text)
    subprocess.run(["git", "add", name], cwd=repo, check=True, env=env)
    return repo, env


def test_try_repo_fails_fixes_and_passes(tmp_path):
    repo, env = _repository(tmp_path, "bad.py", BAD)

    def hook(hook_id, *extra):
        return run([PRE_COMMIT, "try-repo", ROOT, hook_id, "--files", "bad.py", *extra],
                   cwd=str(repo), env=env, timeout=900)

    lint = hook("tensorcopy")
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert "TEN201" in lint.stdout and "TEN301" in lint.stdout
    fix = hook("tensorcopy-fix")
    assert fix.returncode == 1, fix.stdout + fix.stderr  # files were modified by this hook
    assert "files were modified by this hook" in fix.stdout
    assert (repo / "bad.py").read_text() == BAD.replace(
        "torch.tensor(t), t.clone().detach()", "t.detach().clone(), t.detach().clone()")
    subprocess.run(["git", "add", "bad.py"], cwd=repo, check=True, env=env)
    again = hook("tensorcopy")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "Passed" in again.stdout


#: a notebook with the mistake in its second cell
NOTEBOOK = json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
    {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "id": "a",
     "source": ["import torch\n"]},
    {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "id": "b",
     "source": ["t = torch.ones(3)\n", "u = torch.tensor(t)\n"]}]}, indent=1) + "\n"


def test_the_lint_hook_checks_notebooks(tmp_path):
    repo, env = _repository(tmp_path, "nb.ipynb", NOTEBOOK)
    lint = run([PRE_COMMIT, "try-repo", ROOT, "tensorcopy", "--files", "nb.ipynb"],
               cwd=str(repo), env=env, timeout=900)
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert "nb.ipynb:cell 2:2:5: TEN201" in lint.stdout
