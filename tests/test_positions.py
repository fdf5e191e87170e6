"""Positions without libcst: every diagnostic position and every fix edit offset, and every node
of every statement, must equal what libcst's PositionProvider gives over the whole module (libcst
is the oracle here, in tests only). The corpus: the fixture files, every rule's examples and fix
cases, CRLF variants, variants with non-ASCII text, and generated tensor programs; with and
without the pre-filter's skipping of candidate-free code."""
import glob
import os
import textwrap

import libcst as cst
import pytest
from hypothesis import HealthCheck, given, settings
from libcst.metadata import MetadataWrapper, PositionProvider

from flake8_tensorcopy.engine import analyze
from flake8_tensorcopy.lint import LintError
from flake8_tensorcopy.rules import ALL_RULES
from flake8_tensorcopy.syntax.source import line_starts

from .conftest import FIXTURES
from .cst_oracle import mismatches
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
        if name.startswith("TEN") and "import torch" in out[name]:
            # non-ASCII text on the lines before and on the flagged ones: columns count
            # characters (ast counts bytes)
            out[name + "-utf8"] = out[name].replace(
                "import torch", "import torch  # \u00e9t\u00e9 \u2192 \u03c0", 1).replace(
                "(t)", "(t) if '\u00e9' else (t)", 1)
    for name in list(out):
        if "\r" not in out[name]:
            out[name + "-crlf"] = out[name].replace("\n", "\r\n")
    return out


CORPUS = _corpus()
#: what the tests compared
COUNTS = {"positions": 0, "offsets": 0, "nodes": 0}
#: the node a diagnostic of each code family is reported on
REPORTED = {"TEN1": (cst.Attribute,), "TEN2": (cst.Call,), "TEN3": (cst.Call,),
            "TEN4": (cst.Call, cst.Assign, cst.AugAssign,
                     cst.Subscript),  # TEN403: each item of a tuple write, at its target
            "TEN5": (cst.Expr, cst.Assign, cst.AugAssign)}


def _oracle(src):
    """(ranges by node type, every offset where a node starts or ends) by PositionProvider."""
    module = cst.parse_module(src)
    ref = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    starts = line_starts(src)
    ranges = {}
    bounds = set(starts) | {len(src)}
    for node, rng in ref.items():
        key = (rng.start.line, rng.start.column, rng.end.line, rng.end.column)
        ranges.setdefault(type(node), set()).add(key)
        for pos in (rng.start, rng.end):
            if pos.line <= len(starts):
                bounds.add(starts[pos.line - 1] + pos.column)
    return ranges, bounds


def _compare(src, **kw):
    """Every diagnostic's range is the range of a node of the reported kind, and every edit
    starts and ends where a node (a token, a line) starts or ends."""
    try:
        diags = analyze(src, **kw)
    except LintError:
        return 0
    if not diags:
        return 0
    try:
        ranges, bounds = _oracle(src)
    except cst.ParserSyntaxError:
        return 0  # valid Python that libcst 1.0.1 cannot parse: no oracle
    for d in diags:
        key = (d.line, d.column, d.end_line, d.end_column)
        assert any(key in ranges.get(t, ()) for t in REPORTED[d.code[:4]]), (src, d)
        COUNTS["positions"] += 2
        for e in (d.fix.edits if d.fix else ()):
            assert e.start in bounds and e.end in bounds, (src, d, e)
            COUNTS["offsets"] += 2
    return len(diags)


@pytest.mark.parametrize("name", sorted(CORPUS))
@pytest.mark.parametrize("mode", [{}, {"mask": False}, {"prefilter": False}],
                         ids=["default", "nomask", "noprefilter"])
def test_diagnostic_positions_and_fix_offsets_match_position_provider(name, mode):
    _compare(CORPUS[name], **mode)


def test_the_modes_agree():
    """Skipping candidate-free code and the pre-filter change no position or offset."""
    for src in CORPUS.values():
        try:
            ref = analyze(src, prefilter=False)
        except LintError:
            continue
        assert analyze(src) == ref == analyze(src, mask=False), src


def test_corpus_has_diagnostics_with_fixes():
    """The comparison above is not vacuous: the corpus yields positions and fix edits."""
    n = sum(_compare(src) for src in CORPUS.values())
    assert n > 100 and COUNTS["offsets"] > 100, (n, COUNTS)


def _every_node_matches(src):
    try:
        cst.parse_module(src)
        compile(src, "<test>", "exec", 0x400, dont_inherit=True)  # ast.PyCF_ONLY_AST
    except (SyntaxError, cst.ParserSyntaxError):
        return 0
    diffs, n = mismatches(src)
    assert not diffs, (src, diffs[:5])
    return n


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_every_node_of_every_statement_matches(name):
    COUNTS["nodes"] += _every_node_matches(CORPUS[name])


def test_the_node_comparison_is_not_vacuous():
    n = sum(_every_node_matches(src) for src in CORPUS.values())
    assert n > 5000, n


EDGE = [
    "import torch\n# c\n\n@torch.no_grad()\n# between\n@d\ndef f(p):\n    p.data.add_(1)\n",
    "import torch\nx = torch.randn(3)\ny = x.detach()\n\n# c\ny.add_(1)",  # no final newline
    "import torch\nif a:\n    pass\nelif b:\n    t = torch.tensor(x.data)\nelse:\n"
    "    y = z.clone().detach()\n",
    "import torch\ntry:\n    y = z.clone().detach()\nexcept E:\n  y = z.clone().detach()\n"
    "finally:\n\ty = z.clone().detach()\n",
    "import torch\nclass A:\n    def f(self, t: torch.Tensor):\n"
    "        return torch.tensor(t); y = t.clone().detach()\n",
    "import torch\nfor p in m.parameters(): p.data.add_(1)\nwhile x:\n    with torch.no_grad():\n"
    "        a = b.clone().detach()\n",
    "import torch\nmatch x:\n    case 1:\n        y = t.clone().detach()\n",
    "x = torch.tensor(t) \\\n    + 1\nimport torch\nt = torch.ones(2)\nt2 = t.detach()\nt2.mul_(2)\n",
    "import torch\r\nx = t.clone().detach()\r\n\x0c\r\ny = t.clone().detach()\r\n",
    "import torch\ndef f(t: torch.Tensor):\n    '''doc\n    more'''\n    if t:\n"
    "        r = torch.tensor(t)\n\n\n    # tail\n",
    # parentheses: a node's own, a call's, a tuple's, a generator's; comments and continuations
    "import torch\ndef f(t: torch.Tensor, u):\n    a = torch.tensor((t))\n"
    "    b = ((t)).clone().detach()\n    c = torch.tensor(((t, u)))\n    d = f(x for x in (t))\n"
    "    e = (t\n         # why\n         ).data.sum()\n"
    "    g = torch.tensor(t,  # src\n        dtype=torch.float64 \\\n        , device='cpu')\n"
    "    h = torch.tensor((t), requires_grad=(True))\n    k = (t.data)\n    m = [(t).data, ((t).data)]\n",
    # tuples: their own parentheses, an element's, an f-string's braces; a subscript's tuple
    "import torch\nz = (a), b\nw = ((a), b)\nv = x[(a), b]\nu = ()\ns = f\"{'a', 'b'} {(1, 2)}\"\n"
    "class A(\n    B\n):\n    r = torch.tensor((a, (b)))\n",
    # the first indented block sets the indentation of a ``no_grad`` block: a tab here (not the
    # one-line suite before it)
    "import torch\nif x: y = 1\n@d\ndef f(p):\n\tp.data.add_(1)\n\tif p:\n\t    p.data.mul_(2)\n",
    # what TEN401's read_after meets walking ``children``: an attribute's and a keyword's names
    # too, imports, patterns, f-strings, a tuple of dicts
    "import torch.utils.data as tud\nx = torch.randn(3)\ny = x.detach()\ny.add_(1)\nz = obj.y\n"
    "w = f(y=1, *a, **k); v = f'{y!r:>{y}}' 'x'\nmatch y:\n    case [A.y, {'k': y}, *ys] if y: pass\n"
    "del y, z\nglobal g\nt = {}, {}\n",
    # non-ASCII before and inside flagged code
    "import torch\ndef f(t: torch.Tensor):\n"
    "    s = '\u00e9\u00e9'; r = torch.tensor(t); q = f'{t.data} \u2192 {t.data}'\n"
    "    \u00e4 = t.clone().detach()  # \u00fc\n",
    # a multi-line receiver inside a block: libcst prints it relative to the block
    "import torch\nclass A:\n    def f(self, t: torch.Tensor):\n        y = torch.tensor(\n"
    "            t[\n                0]).detach()\n        self.layers[\n"
    "            0].weight.data.add_(1)\n",
]


def test_edge_shapes():
    """Shapes where a statement's first line is not its first token's, or the file ends oddly."""
    n = 0
    for src in EDGE:
        for mode in ({}, {"mask": False}, {"prefilter": False}):
            n += _compare(src, **mode)
        _every_node_matches(src)
    assert n > 30


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_generated_programs(src):
    _compare(src)
    _compare(src, mask=False)
    _every_node_matches(src)


def test_split_lines_splits_where_the_tokenizer_does_on_every_path():
    """``split_lines`` (the plain-newline shortcut and the general pattern alike) splits at
    \\n, \\r\\n and \\r only, keeps a last line without an end, and never splits at the
    characters ``str.splitlines`` also takes (form feed, \\x1c, \\x85, \\u2028)."""
    import itertools
    from flake8_tensorcopy.syntax.source import _LINES, split_lines

    pieces = ["", "a", "x = 1", "\n", "\r\n", "\r", "\f", "\x1c", "\x85", "\u2028", "é"]
    checked = 0
    for parts in itertools.product(pieces, repeat=3):
        text = "".join(parts)
        want = _LINES.findall(text)
        assert split_lines(text, keepends=True) == want, repr(text)
        assert split_lines(text) == [line.rstrip("\r\n") for line in want], repr(text)
        checked += 1
    assert checked == len(pieces) ** 3


def test_one_string_says_what_the_one_literal_pattern_says():
    """``nodes.one_string`` (a shortcut before ``ONE_STRING.fullmatch``) gives the pattern's
    answer for every string constant of this package and of generated literals and implicit
    concatenations (prefixes, escaped quotes, empty and triple-quoted strings)."""
    import ast
    import itertools
    import os

    import flake8_tensorcopy
    from flake8_tensorcopy.syntax.nodes import ONE_STRING, one_string

    texts = []
    bodies = ["", "a", "it\\'s", 'say \\"hi\\"', "\\\\", "a\\\nb", "'", '"', "''", "\\'\\'\\'"]
    for prefix, quote, body in itertools.product(["", "r", "b", "rb", "Rb", "f", "u"],
                                                 ["'", '"', "'''", '"""'], bodies):
        texts.append(prefix + quote + body + quote)
    texts += [a + sep + b for a, b in itertools.product(texts[:40], texts[40:80])
              for sep in ("", " ", "\n")]
    package = os.path.dirname(flake8_tensorcopy.__file__)
    for folder, _, names in os.walk(package):
        for name in sorted(n for n in names if n.endswith(".py")):
            with open(os.path.join(folder, name), encoding="utf-8") as fh:
                src = fh.read()
            for node in ast.walk(ast.parse(src)):
                if isinstance(node, (ast.Constant, ast.JoinedStr)) and \
                        isinstance(getattr(node, "value", ""), (str, bytes, list)):
                    text = ast.get_source_segment(src, node)
                    if text:
                        texts.append(text)
    valid = 0
    for text in texts:
        try:
            ast.parse(text, mode="eval")
        except SyntaxError:
            continue  # ``one_string`` is asked about real literals only
        valid += 1
        assert one_string(text) == (ONE_STRING.fullmatch(text) is not None), text
    assert valid > 3000 and any(not one_string(t) for t in texts[280:])


def test_lines_and_line_starts_known_from_the_reader_are_the_ones_the_text_gives(monkeypatch):
    """``source.know_lines``: where the reader's lines each end with their one ``\\n``
    (flake8's), they are ``split_lines`` of the text and their lengths added up its
    ``line_starts``; other splits (at a form feed, ``\\r``, lines joined wrongly) are left to
    those. The flake8 plugin gives its lines: the analysed file is not split again."""
    import ast
    import io

    from flake8_tensorcopy.plugin import TensorCopyChecker
    from flake8_tensorcopy.syntax import source

    texts = ["", "a", "a\n", "a\nb", "a\n\nb\n", "\n\n", "a\n\n", "x = 1\x0cy = 2\n", "a\r\nb\n",
             "a\rb", "s = 'a\u2028b'\nc\n", "a\x0bb\nc"]
    for text in texts:
        for lines in (io.StringIO(text, newline="").readlines(), text.splitlines(True),
                      [text], [text[:1], text[1:]]):
            if "".join(lines) != text:
                continue
            copy = "".join(list(text)) + ""
            fresh, fresh_lines = source.line_starts(copy), source.split_lines(copy, True)
            source.know_lines(text, lines)
            assert source.line_starts(text) == fresh, (text, lines)
            assert source.split_lines(text, True) == fresh_lines, (text, lines)

    calls = []
    real = source._PLUS_ONE
    monkeypatch.setattr(source, "_PLUS_ONE", lambda n: calls.append(n) or real(n))
    text = "import torch\n\n\ndef f(w: torch.Tensor):\n    w.data.zero_()\n    return w\n"
    from flake8_tensorcopy.syntax import build

    served = []
    real_split = build.split_lines

    def split(t, keepends=False):
        served.append(keepends and source._LAST_LINES[0] is t)
        return real_split(t, keepends)

    monkeypatch.setattr(build, "split_lines", split)
    found = list(TensorCopyChecker(ast.parse(text), io.StringIO(text).readlines()).run())
    assert found and not calls and served and all(served)
    found = list(TensorCopyChecker(ast.parse(text), [text]).run())
    assert found and calls
