"""The project's own source lints clean and without failures (bugbear does this too)."""
import glob
import os

from flake8_tensorcopy.engine import analyze

from .conftest import ROOT


def test_own_source_is_clean():
    files = glob.glob(os.path.join(ROOT, "flake8_tensorcopy", "**", "*.py"), recursive=True)
    files += glob.glob(os.path.join(ROOT, "tests", "*.py"))
    assert len(files) > 10
    for path in files:
        with open(path, encoding="utf-8") as fh:
            assert analyze(fh.read()) == [], path
