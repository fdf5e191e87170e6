"""The cost grows linearly with the work (issue 23): counted operations at two small sizes,
never wall-clock time. ``benchmarks/scaling.py`` times the same generated inputs at 1k-16k."""
import os
import sys

import pytest

from flake8_tensorcopy import edits, fixes, syntax
from flake8_tensorcopy.fixes import fix_source

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "benchmarks"))
from scaling import fixer_source  # noqa: E402

SMALL, LARGE = 250, 1000
#: the growth allowed from SMALL to LARGE: linear is 4x, quadratic 16x
BOUND = (LARGE / SMALL) ** 1.15


class Counted:
    """Counts what a fix run does: pairs of edits compared for conflicts, and characters
    scanned to find where lines start."""

    def __init__(self, monkeypatch):
        self.pairs = 0
        self.scanned = 0
        conflicts = edits.conflicts
        starts = syntax.source.line_starts

        def counting_conflicts(a, b):
            self.pairs += 1
            return conflicts(a, b)

        def counting_starts(text):
            self.scanned += len(text)
            return starts(text)

        monkeypatch.setattr(edits, "conflicts", counting_conflicts)
        if hasattr(fixes, "conflicts"):
            monkeypatch.setattr(fixes, "conflicts", counting_conflicts)
        monkeypatch.setattr(fixes, "line_starts", counting_starts)


def _fix(n, monkeypatch):
    counted = Counted(monkeypatch)
    src = fixer_source(n)
    result = fix_source(src)
    # the output, byte for byte: every ``clone().detach()`` became ``detach().clone()``
    assert result.source == src.replace(".clone().detach()", ".detach().clone()")
    assert result.applied["TEN301"] == n
    return counted


def test_fixer_compares_and_scans_linearly_in_the_number_of_fixes(monkeypatch):
    small = _fix(SMALL, monkeypatch)
    large = _fix(LARGE, monkeypatch)
    assert large.pairs <= max(small.pairs, SMALL) * BOUND, (small.pairs, large.pairs)
    assert large.scanned <= small.scanned * BOUND, (small.scanned, large.scanned)


@pytest.mark.parametrize("gap", ["", " ", "  # c"])
def test_fixer_keeps_nested_and_adjacent_fixes_apart(gap):
    """Fixes inside fixes: the sweep must refuse exactly the conflicting ones in a round (the
    later rounds fix them), as comparing every pair did."""
    src = "import torch\nx = torch.zeros(3)\n" + "".join(
        f"y{i} = x.clone().detach().clone().detach(){gap}\n" for i in range(30)) + \
        "z = torch.tensor(torch.tensor(x).clone().detach())\n"
    result = fix_source(src, unsafe=True)
    assert result.source == src.replace(
        "x.clone().detach().clone().detach()", "x.detach().detach().clone().clone()").replace(
        "torch.tensor(torch.tensor(x).clone().detach())",
        "x.detach().detach().detach().clone().clone().clone()")
    assert result.applied == {"TEN301": 3 * 30 + 4, "TEN201": 2}  # rounds: outer, inner, merged
