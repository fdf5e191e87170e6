"""The ast pre-filter may only skip files where the full libcst analysis finds nothing."""
import ast
import glob
import os

from flake8_tensorcopy.engine import analyze
from flake8_tensorcopy.prefilter import has_candidates
from flake8_tensorcopy.rules import ALL_RULES

from .conftest import FIXTURES, ROOT


def _sources():
    for rule in ALL_RULES:
        for ex in rule.invalid:
            yield ex.before
        yield from rule.valid
    for path in glob.glob(os.path.join(FIXTURES, "*.py")) + glob.glob(os.path.join(ROOT, "examples", "*.py")):
        with open(path, encoding="utf-8") as fh:
            yield fh.read()


def test_prefilter_never_hides_a_diagnostic():
    checked = 0
    for src in _sources():
        full = analyze(src, prefilter=False)
        if full:
            assert has_candidates(ast.parse(src)), src
            assert analyze(src) == full
            checked += 1
    assert checked >= 30


def test_prefilter_skips_files_without_shapes():
    src = "import torch\nfrom torch.utils.data import DataLoader\nx = torch.tensor([1, 2])\n" \
          "class A:\n    def f(self):\n        return self.data\n"
    assert not has_candidates(ast.parse(src))
    assert has_candidates(ast.parse("from torch import tensor as T\nT(x)\n"))
    assert has_candidates(ast.parse("y = x.detach()\n"))
