"""Positions without PositionProvider: every diagnostic position and every fix edit offset, and
every node of every statement, must equal what libcst's PositionProvider gives over the whole
module. The corpus: the fixture files, every rule's examples and fix cases, CRLF variants, and
generated tensor programs; with and without the pre-filter's blanking."""
import ast
import glob
import os
import textwrap

import libcst as cst
import pytest
from hypothesis import HealthCheck, given, settings
from libcst.metadata import MetadataWrapper, PositionProvider

import flake8_tensorcopy.positions as positions
from flake8_tensorcopy.engine import LintError, analyze
from flake8_tensorcopy.prefilter import blank, plan
from flake8_tensorcopy.rules import ALL_RULES
from flake8_tensorcopy.source import line_starts

from .conftest import FIXTURES
from .test_hardening import programs


def _corpus():
    out = {}
    for path in sorted(glob.glob(os.path.join(FIXTURES, "*.py"))):
        with open(path, encoding="utf-8", newline="") as fh:
            out[os.path.basename(path)] = fh.read()
    for rule in ALL_RULES:
        for i, ex in enumerate(rule.invalid):
            out[f"{rule.code}-invalid-{i}"] = ex.before
            if ex.after:
                out[f"{rule.code}-after-{i}"] = ex.after
        for i, src in enumerate(rule.valid):
            out[f"{rule.code}-valid-{i}"] = src
        for i, case in enumerate(rule.fix_cases):
            out[f"{rule.code}-fixcase-{i}"] = (
                "import torch\n\n\ndef f(t: torch.Tensor, x: torch.Tensor):\n"
                + textwrap.indent(case.body, "    ") + "\n")
    for name in list(out):
        if "\r" not in out[name]:
            out[name + "-crlf"] = out[name].replace("\n", "\r\n")
    return out


CORPUS = _corpus()
#: what the test compared: {"positions": n, "offsets": n}
COUNTS = {"positions": 0, "offsets": 0, "nodes": 0}


def _reference(src, **kw):
    positions.REFERENCE = True
    try:
        return analyze(src, **kw)
    finally:
        positions.REFERENCE = False


def _compare(src, **kw):
    before = positions.FALLBACKS
    try:
        fast = analyze(src, **kw)
    except LintError:
        with pytest.raises(LintError):
            _reference(src, **kw)
        return 0
    ref = _reference(src, **kw)
    assert fast == ref, src
    assert positions.FALLBACKS == before, "a position needed the whole module regenerated"
    COUNTS["positions"] += 2 * len(fast)
    COUNTS["offsets"] += sum(2 * len(d.fix.edits) for d in fast if d.fix)
    return len(fast)


@pytest.mark.parametrize("name", sorted(CORPUS))
@pytest.mark.parametrize("mode", [{}, {"mask": False}, {"prefilter": False}], ids=["default", "nomask", "noprefilter"])
def test_diagnostic_positions_and_fix_offsets_match_position_provider(name, mode):
    _compare(CORPUS[name], **mode)


def test_corpus_has_diagnostics_with_fixes():
    """The comparison above is not vacuous: the corpus yields positions and fix edits."""
    n = sum(_compare(src) for src in CORPUS.values())
    assert n > 100 and COUNTS["offsets"] > 100, (n, COUNTS)


def _statement_paths(module, tree):
    """Every statement at every depth, as its path of enclosing statements."""
    out = []

    def visit(stmts, prefix):
        for s in stmts:
            path = prefix + (s,)
            out.append(path)
            for block, _ in positions._blocks(s, None):
                if type(block) is cst.IndentedBlock:
                    visit(block.body, path)

    visit(module.body, ())
    return out


def _every_node_matches(parsed, tree, line_map, tree_is_original):
    module = cst.parse_module(parsed)
    ref = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    loc = positions.Locator(module, parsed, line_starts(parsed), tree, line_map, tree_is_original)
    n = 0
    for path in _statement_paths(module, tree):
        loc.add(path)
        assert id(path[-1]) in loc.done, (parsed, path[-1])
    assert not loc.whole
    for node, rng in loc.computed.items():
        want = ref[node]
        if line_map is not None and want.end.line > len(line_map):
            continue  # a newline token ending past the last line: no original line to map to
        got = loc.get(node)
        if line_map is not None:
            assert (got.start.line, got.start.column, got.end.line, got.end.column) == (
                line_map[want.start.line - 1], want.start.column, line_map[want.end.line - 1],
                want.end.column)
        else:
            assert got == want
        n += 1
    return n


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_every_node_of_every_statement_matches(name):
    src = CORPUS[name]
    try:
        tree = ast.parse(src)
        cst.parse_module(src)
    except (SyntaxError, cst.ParserSyntaxError):
        return
    COUNTS["nodes"] += _every_node_matches(src, tree, None, True)
    found, spans = plan(tree, src)
    if spans:  # blanked text: lines from the original tree, mapped back through the line map
        parsed, line_map = blank(src, spans)
        COUNTS["nodes"] += _every_node_matches(parsed, tree, line_map, True)


def test_edge_shapes():
    """Shapes where a statement's first line is not its first token's, or the file ends oddly."""
    srcs = [
        "import torch\n# c\n\n@torch.no_grad()\n# between\n@d\ndef f(p):\n    p.data.add_(1)\n",
        "import torch\nx = torch.randn(3)\ny = x.detach()\n\n# c\ny.add_(1)",  # no final newline
        "import torch\nif a:\n    pass\nelif b:\n    t = torch.tensor(x.data)\nelse:\n    y = z.clone().detach()\n",
        "import torch\ntry:\n    y = z.clone().detach()\nexcept E:\n  y = z.clone().detach()\nfinally:\n\ty = z.clone().detach()\n",
        "import torch\nclass A:\n    def f(self, t: torch.Tensor):\n        return torch.tensor(t); y = t.clone().detach()\n",
        "import torch\nfor p in m.parameters(): p.data.add_(1)\nwhile x:\n    with torch.no_grad():\n        a = b.clone().detach()\n",
        "import torch\nmatch x:\n    case 1:\n        y = t.clone().detach()\n",
        "x = torch.tensor(t) \\\n    + 1\nimport torch\nt = torch.ones(2)\nt2 = t.detach()\nt2.mul_(2)\n",
        "import torch\r\nx = t.clone().detach()\r\n\x0c\r\ny = t.clone().detach()\r\n",
        "import torch\ndef f(t: torch.Tensor):\n    '''doc\n    more'''\n    if t:\n        r = torch.tensor(t)\n\n\n    # tail\n",
    ]
    for src in srcs:
        for mode in ({}, {"mask": False}, {"prefilter": False}):
            _compare(src, **mode)
        try:
            tree = ast.parse(src.lstrip("\ufeff"))
        except SyntaxError:
            continue
        _every_node_matches(src.lstrip("\ufeff"), tree, None, True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_generated_programs(src):
    _compare(src)
    _compare(src, mask=False)
