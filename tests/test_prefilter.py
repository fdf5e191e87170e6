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


def test_text_gate_keeps_alias_calls():
    from flake8_tensorcopy.prefilter import plan

    src = ("from torch import tensor as T\nimport torch\n\n\ndef f(t: torch.Tensor):\n"
           "    return T(t)\n" + "\n" * 60 + "def g():\n    return 1\n")
    found, spans = plan(ast.parse(src), src)
    assert found and all(start > 6 for start, _, _ in spans)
    (d,) = analyze(src)
    assert d.code == "TEN201" and d.line == 6


def test_text_shapes_cover_multiline_alias_imports():
    from flake8_tensorcopy.engine import might_match

    src = "from torch import (\n    tensor as T,\n)\n\n\ndef f(t):\n    return T(t)\n"
    assert might_match(src)
    assert has_candidates(ast.parse(src))


def test_bare_expression_statements_are_blanked_unless_needed():
    """Shape-free bare expression statements (logging, backward, step) are blanked before libcst
    parses; in-place calls, registrations, ``:=``, ``.data``, docstrings and statements that share
    a line stay, and so does every one in a scope that binds a ``detach()``/``.data`` alias
    (TEN401 reads later mentions of it); the diagnostics are those of the full analysis."""
    from flake8_tensorcopy.prefilter import plan

    body = [
        '    """Docstring stays."""',
        "    z = x + 1",
        "    print('step', i)",  # 3: blanked
        "    loss.backward()",  # 4: blanked
        "    logger.info(\n        'multi-line %s',\n        i)",  # 5-7: blanked
        "    z.add_(1)",  # 8: in-place: kept
        "    self.register_buffer('b', t)",  # 9: kept
        "    print(n := 3)",  # 10: binding: kept
        "    print(p.data)",  # 11: .data: kept
        "    a = 1; print(a)",  # 12: shares its line: kept
        "    print(2)  # trailing comment",  # 13: blanked
    ]
    alias = [
        "def g(x: torch.Tensor, logger):",
        "    y = x.detach()",
        "    y.add_(1)",
        "    logger.info('done')",  # kept: this scope binds an alias
        "    print(y)",  # kept: the read that makes the write above TEN401
    ]
    src = "import torch\n\n\ndef f(x: torch.Tensor, self, t, i, loss, logger, p):\n" + \
        "\n".join(body) + "\n\n\n" + "\n".join(alias) + "\n" + "# padding\n" * 120
    found, spans = plan(ast.parse(src), src)
    blanked = sorted((s - 4, e - 4) for s, e, stand_in in spans if stand_in == "pass")
    assert found and blanked == [(3, 3), (4, 4), (5, 7), (13, 13)], blanked
    full = analyze(src, prefilter=False)
    assert {d.code for d in full} >= {"TEN401", "TEN101"}
    assert analyze(src) == full
