"""The oldest and newest supported Pythons lint like the main one (``requires-python >= 3.9``).

Runs the linter, from this checkout, under every other interpreter this machine has (pyenv's, or
pythonX.Y on PATH) and compares with this one. ``.ci/pythons`` runs the torch-free test files
there too; this test keeps the main suite honest when those interpreters exist."""
from __future__ import annotations

import glob
import json
import os
import subprocess
import sys

import pytest

from .conftest import ROOT


SOURCE = '''\
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        try:
            self.w = nn.Parameter(torch.ones(3))
        except RuntimeError:
            pass

    def forward(self, x):
        return torch.tensor(self.w.data) + x.clone().detach()
'''

PROBE = ("import json, sys; sys.path.insert(0, sys.argv[1]); "
         "from flake8_tensorcopy import lint_source; "
         "print(json.dumps([[d.code, d.line, d.column, d.message] for d in lint_source(sys.stdin.read(), 'm.py')]))")


def _interpreters():
    found = {}
    pyenv_root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    for minor in (9, 13):
        for cand in sorted(glob.glob(os.path.join(pyenv_root, "versions", f"3.{minor}.*", "bin",
                                                  "python"))):
            found[f"3.{minor}"] = cand
    return sorted(found.items())


def _lint(python):
    proc = subprocess.run([python, "-I", "-c", PROBE, ROOT], input=SOURCE, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


@pytest.mark.parametrize("version, python", _interpreters() or [pytest.param(
    "none", "", marks=pytest.mark.skip(reason="no Python 3.9 or 3.13 on this machine"))])
def test_other_pythons_lint_like_this_one(version, python):
    here = _lint(sys.executable)
    assert [d[0] for d in here] == ["TEN201", "TEN101", "TEN301"]
    assert _lint(python) == here, version
