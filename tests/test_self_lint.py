"""The project's own source lints clean through flake8 itself (bugbear does this too)."""
import glob
import os

from .conftest import ROOT, flake8


def test_own_source_is_clean():
    targets = [os.path.join(ROOT, "flake8_tensorcopy")] + glob.glob(os.path.join(ROOT, "tests", "*.py"))
    res = flake8("--select", "TEN", *targets)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout == "" and res.stderr == ""
