"""Imports resolve as Python resolves them (issue 45), through the real CLI on project trees:
an absolute import inside a package is the top-level module, not a sibling; a package folder
wins over a module file of the same name. Each program runs and prints what Python imported;
``check`` reports what that module returns, nothing else."""
import json
import sys

import pytest

from .conftest import run, tensorcopy

pytest.importorskip("torch")

TENSOR = "import torch\n\n\ndef f():\n    return torch.ones(3)\n"
LIST = "def f():\n    return [1.0, 2.0]\n"
USE = "import torch\nfrom helpers import f\n\nprint(type(torch.tensor(f())).__name__, f())\n"


def _codes(tmp_path, path):
    res = tensorcopy("check", "--no-cache", "--output-format", "json", str(path), cwd=tmp_path)
    assert res.returncode in (0, 1), res.stderr
    return [d["code"] for d in json.loads(res.stdout)]


def test_absolute_import_in_a_package_is_the_top_level_module(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (tmp_path / "helpers.py").write_text(LIST)
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "helpers.py").write_text(TENSOR)
    (pkg / "mod.py").write_text(USE)
    res = run([sys.executable, "-m", "pkg.mod"], cwd=tmp_path)
    assert res.returncode == 0 and "[1.0, 2.0]" in res.stdout, res.stderr
    assert _codes(tmp_path, pkg / "mod.py") == []
    # a script's folder is on its own path: beside it, the sibling is the one imported
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "helpers.py").write_text(TENSOR)
    (tmp_path / "scripts" / "run.py").write_text(USE)
    res = run([sys.executable, "scripts/run.py"], cwd=tmp_path)
    assert res.returncode == 0 and "tensor(" in res.stdout, res.stderr
    assert _codes(tmp_path, tmp_path / "scripts" / "run.py") == ["TEN201"]


def test_a_package_wins_over_a_module_of_the_same_name(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (tmp_path / "helpers.py").write_text(TENSOR)
    (tmp_path / "helpers").mkdir()
    (tmp_path / "helpers" / "__init__.py").write_text(LIST)
    (tmp_path / "main.py").write_text(USE)
    res = run([sys.executable, "main.py"], cwd=tmp_path)
    assert res.returncode == 0 and "[1.0, 2.0]" in res.stdout, res.stderr
    assert _codes(tmp_path, tmp_path / "main.py") == []


def test_a_method_replaced_at_import_time_has_no_summary(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (tmp_path / "lib.py").write_text(
        "import torch\n\n\nclass A:\n    def make(self):\n        return torch.ones(3)\n\n\n"
        "def as_list(self):\n    return [1.0, 2.0]\n\n\nA.make = as_list\n")
    (tmp_path / "main.py").write_text(
        "import torch\nfrom lib import A\n\nprint(type(torch.tensor(A().make())).__name__)\n")
    res = run([sys.executable, "main.py"], cwd=tmp_path)
    assert res.returncode == 0 and "Tensor" in res.stdout, res.stderr
    assert _codes(tmp_path, tmp_path / "main.py") == []
    # without the replacement the summary stands: the diagnostic is there
    (tmp_path / "lib.py").write_text(
        "import torch\n\n\nclass A:\n    def make(self):\n        return torch.ones(3)\n")
    assert _codes(tmp_path, tmp_path / "main.py") == ["TEN201"]
