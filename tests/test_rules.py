"""Each rule's own examples drive its tests (Fixit style) and its docs."""
import os

import pytest

from flake8_tensorcopy import lint_source
from flake8_tensorcopy.docs import all_docs
from flake8_tensorcopy.rules import ALL_RULES, RULES_BY_CODE, select_rules

from .conftest import ROOT

INVALID = [(r.code, i, ex) for r in ALL_RULES for i, ex in enumerate(r.invalid)]
VALID = [(r.code, i, src) for r in ALL_RULES for i, src in enumerate(r.valid)]


@pytest.mark.parametrize("code,i,example", INVALID, ids=lambda v: str(v) if not hasattr(v, "before") else "")
def test_invalid_example_is_flagged_once(code, i, example):
    diags = [d for d in lint_source(example.before) if d.code == code]
    assert len(diags) == 1, (code, example.before, diags)
    d = diags[0]
    if example.after is None:
        assert d.fix is None
    else:
        assert d.fix is not None
        assert d.fix.is_safe == (not example.unsafe)


@pytest.mark.parametrize("code,i,source", VALID, ids=lambda v: str(v) if isinstance(v, (str, int)) and len(str(v)) < 10 else "")
def test_valid_example_is_not_flagged(code, i, source):
    assert [d for d in lint_source(source) if d.code == code] == []


def test_codes_are_fixed_and_unique():
    assert list(RULES_BY_CODE) == ["TEN101", "TEN102", "TEN103", "TEN201", "TEN202", "TEN203",
                                   "TEN204", "TEN301", "TEN302", "TEN401", "TEN402", "TEN403",
                                   "TEN501"]
    assert len({r.name for r in ALL_RULES}) == len(ALL_RULES)


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_rule_carries_its_documentation(rule):
    for attr in ("what", "why", "use_instead", "fix_doc"):
        assert getattr(rule, attr).strip(), f"{rule.code} lacks {attr}"
    assert rule.references and rule.invalid and rule.valid
    doc = all_docs()[f"{rule.code}.md"]
    for heading in ("## What it does", "## Why is this bad?", "## Example", "## Use instead",
                    "## Fix safety", "## References"):
        assert heading in doc


def test_generated_docs_are_current():
    stale = []
    for name, text in all_docs().items():
        path = os.path.join(ROOT, "docs", "rules", name)
        if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
            stale.append(name)
    assert not stale, f"docs/rules is stale ({stale}); run `python -m flake8_tensorcopy.docs`"


def test_messages_are_one_line():
    src = ("import torch\n\ndef f(t: torch.Tensor):\n    return torch.tensor(\n        t\n"
           "        + 1,\n    )\n")
    (d,) = lint_source(src)
    assert "\n" not in d.message and d.code == "TEN201"


def test_select_and_ignore_prefixes():
    assert [r.code for r in select_rules(["TEN1"])] == ["TEN101", "TEN102", "TEN103"]
    assert "TEN301" not in [r.code for r in select_rules(None, ["TEN3"])]
    src = "import torch\nt = torch.ones(2)\na = torch.tensor(t)\nb = t.clone().detach()\n"
    assert [d.code for d in lint_source(src, select=["TEN3"])] == ["TEN301"]
    assert [d.code for d in lint_source(src, ignore=["TEN301"])] == ["TEN201"]


def test_lint_source_api_shape():
    (d,) = lint_source("import torch\nt = torch.ones(2)\nc = torch.tensor(t)\n", "x.py")
    assert (d.code, d.line, d.column, d.end_line, d.end_column) == ("TEN201", 3, 4, 3, 19)
    assert d.fix_description.startswith("replace with")
