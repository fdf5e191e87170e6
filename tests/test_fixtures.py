"""Fixture files with inline expectations (bugbear style).

``# expect: TEN101, TEN102`` lists the diagnostics a line must get (a multiset); every other line
must get none. ``# trap`` marks lines that look tempting but must stay silent: they count as cases.
"""
import collections
import glob
import os
import re

import pytest

from flake8_tensorcopy import lint_source

from .conftest import FIXTURES

EXPECT = re.compile(r"#\s*expect:\s*((?:TEN\d{3}[,\s]*)+)")
FILES = sorted(glob.glob(os.path.join(FIXTURES, "**", "*.py"), recursive=True))


def expectations(source):
    expected = collections.Counter()
    traps = 0
    for lineno, line in enumerate(source.splitlines(), 1):
        m = EXPECT.search(line)
        if m:
            for code in re.findall(r"TEN\d{3}", m.group(1)):
                expected[(lineno, code)] += 1
        if "# trap" in line:
            traps += 1
    return expected, traps


@pytest.mark.parametrize("path", FILES, ids=lambda p: os.path.relpath(p, FIXTURES))
def test_fixture_file(path):
    with open(path, encoding="utf-8") as fh:
        source = fh.read()
    expected, _ = expectations(source)
    got = collections.Counter((d.line, d.code) for d in lint_source(source, path))
    missing = sorted((expected - got).elements())
    extra = sorted((got - expected).elements())
    assert not missing, f"expected diagnostics not found: {missing}"
    assert not extra, f"false positives: {extra}"


def test_fixture_corpus_size_and_balance():
    positives = traps = 0
    for path in FILES:
        with open(path, encoding="utf-8") as fh:
            expected, t = expectations(fh.read())
        positives += sum(expected.values())
        traps += t
    assert positives + traps >= 150
    assert traps >= (positives + traps) // 2 - 5, (positives, traps)
    codes = set()
    for path in FILES:
        with open(path, encoding="utf-8") as fh:
            codes |= {c for (_, c) in expectations(fh.read())[0]}
    from flake8_tensorcopy.rules import RULES_BY_CODE
    assert codes == set(RULES_BY_CODE), f"rules without fixture positives: {set(RULES_BY_CODE) - codes}"
