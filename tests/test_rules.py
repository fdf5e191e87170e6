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
                                   "TEN404", "TEN405", "TEN406", "TEN501"]
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


def test_hook_names_narrow_only_attribute_and_call_hooks():
    from flake8_tensorcopy.syntax import nodes

    for rule in ALL_RULES:
        for t, names in rule.hook_names.items():
            assert t in rule.hooks and t in (nodes.Attribute, nodes.Call), rule.code
            assert isinstance(names, frozenset) and names, rule.code
            assert all(n.isidentifier() for n in names), rule.code


def test_a_rule_with_hook_names_is_asked_only_about_those_names(monkeypatch):
    """The engine calls a rule's ``check`` on an ``Attribute``/``Call`` only when its name is
    one the rule declared (most nodes have other names), and on every node of its other hooked
    types; what is flagged is the same as with every node asked."""
    from flake8_tensorcopy.syntax import nodes

    src = ("import torch\n"
           "x = torch.randn(3, requires_grad=True)\n"
           "a = x.data.clone()\n"
           "b = x.clone().detach()\n"
           "c = x.shape\n"
           "d = torch.empty_like(x)\n"
           "d.copy_(x)\n"
           "x.data[0:2] = x.data[1:3]\n"
           "e = x.new_tensor(x)\n"
           "print(x.sum(), len(a), b, c)\n")
    expected = [(d.line, d.column, d.code) for d in lint_source(src)]
    asked = {}
    for rule in ALL_RULES:
        if not rule.hook_names:
            continue
        real = type(rule).check

        def spy(self, node, ctx, real=real):
            asked.setdefault(self.code, []).append(node)
            return real(self, node, ctx)

        monkeypatch.setattr(type(rule), "check", spy)
    assert [(d.line, d.column, d.code) for d in lint_source(src)] == expected
    # each rule with declared names was asked about the nodes with those names
    assert {"TEN101", "TEN202", "TEN301", "TEN302", "TEN403"} <= set(asked)
    for code, seen in asked.items():
        rule = RULES_BY_CODE[code]
        for node in seen:
            t = type(node)
            names = rule.hook_names.get(t)
            if names is None:
                continue
            name = node.attr.value if t is nodes.Attribute else node.func.attr.value
            assert name in names, (code, name)
    # the flags are those of a walk that asks every node
    for rule in ALL_RULES:
        if rule.hook_names:
            monkeypatch.setattr(type(rule), "hook_names", {})
    assert [(d.line, d.column, d.code) for d in lint_source(src)] == expected
    assert {d[2] for d in expected} >= {"TEN301", "TEN302"}


@pytest.mark.parametrize("code", [r.code for r in ALL_RULES if r.hook_names])
def test_hook_names_keep_every_example_of_the_rule(code, monkeypatch):
    """A rule's declared names are faithful to its ``check``: its examples (flagged and not) and
    fix cases give the same diagnostics with every node asked."""
    rule = RULES_BY_CODE[code]
    sources = [ex.before for ex in rule.invalid] + list(rule.valid)
    before = [[(d.line, d.column, d.code, d.message) for d in lint_source(s)] for s in sources]
    monkeypatch.setattr(type(rule), "hook_names", {})
    after = [[(d.line, d.column, d.code, d.message) for d in lint_source(s)] for s in sources]
    assert before == after
