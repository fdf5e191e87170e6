"""The ast pre-filter may only skip files where the full libcst analysis finds nothing."""
import ast

import pytest
import glob
import os
import sys

from flake8_tensorcopy.engine import analyze
from flake8_tensorcopy.syntax.prefilter import BODYLESS, has_candidates
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


def test_prefilter_never_hides_a_diagnostic_in_a_small_file(monkeypatch):
    """As above with every file masked (the engine masks only files over ``_MASK_MIN_CHARS``:
    a shape the plan misses in a small file was seen by the full analysis anyway)."""
    from flake8_tensorcopy import engine

    monkeypatch.setattr(engine, "_MASK_MIN_CHARS", 0)
    hidden = []
    for src in _sources():
        full = analyze(src, prefilter=False)
        if full and analyze(src) != full:
            hidden.append(src.splitlines()[0][:80])
    assert hidden == []


def test_prefilter_skips_files_without_shapes():
    src = "import torch\nfrom torch.utils.data import DataLoader\nx = torch.tensor([1, 2])\n" \
          "class A:\n    def f(self):\n        return self.data\n"
    assert not has_candidates(ast.parse(src))
    assert has_candidates(ast.parse("from torch import tensor as T\nT(x)\n"))
    assert has_candidates(ast.parse("y = x.detach()\n"))


def test_text_gate_keeps_alias_calls():
    from flake8_tensorcopy.syntax.prefilter import plan

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


def test_functions_with_a_candidate_are_kept_whole():
    """Only definitions without any candidate are left out of the tree: a function with one
    keeps every statement (bare expression statements such as logging, ``backward()`` or the
    read that makes an alias write TEN401 included); the diagnostics are those of the full
    analysis."""
    from flake8_tensorcopy.syntax.prefilter import plan

    body = [
        '    """Docstring stays."""',
        "    z = x + 1",
        "    print('step', i)",
        "    loss.backward()",
        "    logger.info(\n        'multi-line %s',\n        i)",
        "    z.add_(1)",
        "    print(p.data)",
    ]
    alias = [
        "def g(x: torch.Tensor, logger):",
        "    y = x.detach()",
        "    y.add_(1)",
        "    logger.info('done')",
        "    print(y)",  # the read that makes the write above TEN401
    ]
    plain = ["def h(a):", "    print(a)", "    return a + 1"]
    src = "import torch\n\n\ndef f(x: torch.Tensor, self, t, i, loss, logger, p):\n" + \
        "\n".join(body) + "\n\n\n" + "\n".join(alias) + "\n\n\n" + "\n".join(plain) + "\n" + \
        "# padding\n" * 120
    found, spans = plan(ast.parse(src), src)
    h = src.splitlines().index("def h(a):") + 1
    assert found and spans == [(h, h + 2, BODYLESS)], spans
    full = analyze(src, prefilter=False)
    assert {d.code for d in full} >= {"TEN401", "TEN101"}
    assert analyze(src) == full


def test_text_index_places_shapes_on_their_lines():
    """The pre-filter finds the lines of every ``SHAPES`` match in one pass and asks, per
    statement, whether one lies within its lines: a shape inside a nested block, on a
    continuation line or after a lone carriage return is found; a definition with none is left
    out."""
    from flake8_tensorcopy.syntax.prefilter import plan

    for nl in ("\n", "\r\n", "\r"):
        src = nl.join([
            "import torch", "", "",
            "def f(m):", "    for p in m.parameters():", "        if p.grad is not None:",
            "            w = (p", "                 .data)", "    return w", "", "",
            "def g(a):", "    return a", ""])
        found, spans = plan(ast.parse(src), src)
        assert found and spans == [(12, 13, BODYLESS)], (nl, spans)


def test_accumulations_are_candidates_only_near_backward_or_in_script_loops():
    """TEN501: an accumulation in a loop is a candidate in a function that calls ``backward``
    or in a script-level loop; elsewhere ``+=`` and ``.append(`` keep a file free."""
    from flake8_tensorcopy.engine import might_match
    from flake8_tensorcopy.syntax.prefilter import plan

    quiet = ("import torch\n\n\ndef f(xs):\n    total = 0\n    out = []\n    for x in xs:\n"
             "        total += x\n        out.append(x * 2)\n    return total, out\n")
    assert not plan(ast.parse(quiet), quiet)[0] and not has_candidates(ast.parse(quiet))
    numbers = ("import torch\nsteps = []\ntotal = 0.0\nfor x in range(3):\n"
               "    steps.append(1)\n    total += loss.item()\n    steps.append(float(x))\n")
    assert not plan(ast.parse(numbers), numbers)[0]
    train = quiet + ("\n\ndef g(model, xs):\n    total = 0\n    for x in xs:\n"
                     "        loss = model(x).sum()\n        loss.backward()\n"
                     "        total += loss\n    return total\n")
    assert might_match(train)
    found, spans = plan(ast.parse(train), train)
    assert found and [(s, e) for s, e, _ in spans] == [(4, 10)]  # f stays masked
    (d,) = analyze(train)
    assert d.code == "TEN501" and d.line == 18
    script = "import torch\nmodel = torch.nn.Linear(2, 1)\npreds = []\nfor x in torch.ones(3, 2):\n" \
             "    preds.append(model(x))\n"
    assert might_match(script) and plan(ast.parse(script), script)[0]
    assert [d.code for d in analyze(script)] == ["TEN501"]
    # script level, after backward: the loss is arithmetic on an untyped model's output
    steps = "import torch\nfrom lib import Net\nnet = Net()\ntotal = 0\nfor i in range(9):\n" \
            "    x = torch.rand(4)\n    loss = (net(x) - x).norm() / 4\n    loss.backward()\n" \
            "    total += loss\n"
    assert might_match(steps) and plan(ast.parse(steps), steps)[0]
    assert [(d.code, d.line) for d in analyze(steps)] == [("TEN501", 9)]
    # script level, an item stored per index: a candidate of its own
    stores = "import torch\nmodel = torch.nn.Linear(2, 1)\nout = torch.empty(3, 1)\n" \
             "for i, x in enumerate(torch.ones(3, 2)):\n    out[i] = model(x)\n"
    assert might_match(stores) and plan(ast.parse(stores), stores)[0]
    assert [(d.code, d.line) for d in analyze(stores)] == [("TEN501", 5)]
    # in a function's loop without backward, a store is no candidate
    stored = "import torch\n\n\ndef f(model, xs, out):\n    for i, x in enumerate(xs):\n" \
             "        out[i] = model(x)\n"
    assert not plan(ast.parse(stored), stored)[0]


def test_lone_copy_into_a_name_is_no_candidate():
    """``a.copy_(b)`` is a shape only as the second statement of TEN302's two-statement form
    (``out = torch.empty_like(v)`` right before ``out.copy_(v)``): a definition that merely copies
    into a name is left out of the tree (issue 23 item 5: the pre-filter admitted every such
    definition), and the two-statement form is still found at module level, in a definition, in
    a nested block and past the text gate."""
    from flake8_tensorcopy.syntax.prefilter import plan

    lone = "import torch\n\n\ndef f(a, b):\n    a.copy_(b)\n    return a\n"
    assert not has_candidates(ast.parse(lone))
    padded = lone + "# padding\n" * 120
    assert plan(ast.parse(padded), padded) == (False, [(4, 6, BODYLESS)])
    assert analyze(padded, prefilter=False) == []

    forms = [
        "import torch\nv = torch.randn(3)\nout = torch.empty_like(v)\nout.copy_(v)\n",
        "import torch\n\n\ndef f(v):\n    out = torch.zeros_like(v)\n    out.copy_(v)\n    return out\n",
        "import torch\n\n\ndef f(v, n):\n    for _ in range(n):\n        if n:\n"
        "            out = torch.ones_like(v)\n            out.copy_(v)\n    return out\n",
        "from torch import empty_like as el\n\n\ndef f(v):\n    out = el(v)\n    out.copy_(v)\n"
        "    return out\n",
    ]
    for src in forms:
        src += "# padding\n" * 120
        full = analyze(src, prefilter=False)
        assert [d.code for d in full] == ["TEN302"], (src, full)
        assert has_candidates(ast.parse(src)), src
        found, spans = plan(ast.parse(src), src)
        assert found and spans == [], (src, spans)
        assert analyze(src) == full


def _trees():
    """Every example and fixture, this package's own modules (decorators, comprehensions,
    ``try``/``with``...), and a sample with ``except``, ``global`` and, where the running Python
    parses it, a ``match`` statement."""
    for src in _sources():
        yield src, ast.parse(src)
    for path in sorted(glob.glob(os.path.join(ROOT, "flake8_tensorcopy", "**", "*.py"),
                                 recursive=True)):
        with open(path, encoding="utf-8") as fh:
            src = fh.read()
        yield src, ast.parse(src)
    src = "try:\n    pass\nexcept (A, B) as e:\n    global g\n"
    if sys.version_info >= (3, 10):  # ``match`` is syntax from Python 3.10
        src += ("match cmd:\n    case [x, *rest] if x.data:\n        y = x.detach()\n"
                "    case {'k': v, **kw}:\n        pass\n    case Point(x=0) | None:\n"
                "        pass\n")
    yield src, ast.parse(src)


def test_the_prefilter_walks_meet_every_expression_and_statement():
    """``_nodes`` reads only the fields ``node_fields`` names: it meets every node ``ast.walk``
    meets but the contexts, operators, import aliases and type-ignore comments (which hold
    nothing a shape is made of); ``statements`` gives ``ast.walk``'s statements in its order."""
    from flake8_tensorcopy.syntax.walk import _BLOCK_HOLDERS, statements, walk_nodes as _nodes

    holding_nothing = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop,
                       ast.alias, ast.type_ignore)
    checked = 0
    for _, tree in _trees():
        walked = list(ast.walk(tree))
        assert sorted(map(id, _nodes(tree))) == sorted(
            id(n) for n in walked if not isinstance(n, holding_nothing))
        assert list(statements(tree)) == [n for n in walked
                                          if n is tree or isinstance(n, _BLOCK_HOLDERS)]
        checked += 1
    assert checked > 100


def test_child_nodes_are_iter_child_nodes_less_what_holds_nothing_in_order():
    """The project index's ``_record_calls`` walks ``child_nodes``: the call sites it records,
    and their order, are those ``ast.iter_child_nodes`` gives, less nodes that hold nothing."""
    from flake8_tensorcopy.syntax.prefilter import child_nodes

    holding_nothing = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop,
                       ast.alias, ast.type_ignore)
    nodes = 0
    for _, tree in _trees():
        for node in ast.walk(tree):
            assert list(child_nodes(node)) == [
                c for c in ast.iter_child_nodes(node) if not isinstance(c, holding_nothing)]
            nodes += 1
    assert nodes > 100_000


def test_the_text_index_asks_only_for_the_shapes_a_tree_can_hold(monkeypatch):
    """The text index that decides which statements ``_has_shape`` walks matches only the
    tree shapes (``TREE_SHAPES``), not TEN501's loops, ``backward`` calls and script-level
    calls: every plan is the one the whole of ``SHAPES`` gives."""
    from flake8_tensorcopy.syntax import prefilter

    trees = list(_trees())
    narrow = [prefilter.plan(tree, src) for src, tree in trees]
    monkeypatch.setattr(prefilter, "TREE_SHAPES", prefilter.SHAPES)
    assert narrow == [prefilter.plan(tree, src) for src, tree in trees]
    assert set(prefilter._TREE_SHAPE_BRANCHES) < set(prefilter._SHAPE_BRANCHES)
    assert sum(found for found, _ in narrow) > 50


def test_the_prefilters_line_numbers_count_breaks_without_the_line_starts(monkeypatch):
    """The pre-filter's lines of sorted offsets are counted on from one offset to the next
    (``lines_of_sorted``), as ``line_numbers`` of the line starts gives them (random texts with
    every line break the tokenizer counts and characters it does not), and planning a file
    without ``\\r`` builds no list of line starts."""
    import random

    from flake8_tensorcopy.syntax import prefilter, source

    rng = random.Random(1)
    for _ in range(3000):
        text = "".join(rng.choices(["a", "\n", "\r", "\r\n", "bc", "\f", "\x0b", "\u2028", "é"],
                                   k=rng.randint(0, 40)))
        offsets = sorted(rng.sample(range(len(text) + 1), min(len(text) + 1, rng.randint(0, 10))))
        assert source.lines_of_sorted(text, offsets) == source.line_numbers(
            source.line_starts(text), offsets), (text, offsets)
    built = []
    for module in (source, prefilter):
        monkeypatch.setattr(module, "line_starts", lambda text: built.append(text) or [0],
                            raising=False)
    text = "import torch\n\n\ndef f(p):\n    x = 1\n    return p.data.clone()\n" * 20
    found, spans = prefilter.plan(ast.parse(text), text)
    assert found and built == []


def test_statements_on_lines_find_every_statement_starting_there():
    """``statements(tree, lines)`` enters only the statements whose lines hold one of the lines asked
    about, and finds every statement that starts on one (``global``/``nonlocal`` found from
    their keyword's lines): over this package's modules and sources with decorators, handlers,
    ``match`` cases and one-line blocks, for random sets of lines."""
    import random

    from flake8_tensorcopy.syntax.prefilter import statements

    import flake8_tensorcopy

    texts = [
        "@dec(\n  1)\ndef f():\n    global a\n    def g():\n        nonlocal b\n",
        "try:\n    pass\nexcept E:\n    if x: global c\nfinally:\n    x = 1; global d\n",
        "class C:\n    @property\n    def p(self):\n        global e\n",
    ]
    if sys.version_info >= (3, 10):
        texts.append("match v:\n    case [a]:\n        global f\n    case _:\n        pass\n")
    top = os.path.dirname(flake8_tensorcopy.__file__)
    for folder, _, names in os.walk(top):
        texts += [open(os.path.join(folder, n), encoding="utf-8").read()
                  for n in sorted(names) if n.endswith(".py")]
    rng = random.Random(2)
    checked = 0
    for text in texts:
        tree = ast.parse(text)
        every = list(statements(tree))
        count = text.count("\n") + 1
        for lines in (sorted(rng.sample(range(1, count + 1), min(count, 3))),
                      sorted({s.lineno for s in every if isinstance(s, (ast.Global, ast.Nonlocal))})):
            found = list(statements(tree, lines))
            assert found[0] is tree and len({id(s) for s in found}) == len(found)
            starting = [s for s in every if getattr(s, "lineno", None) in lines]
            assert {id(s) for s in starting} <= {id(s) for s in found}, (text[:60], lines)
            for s in found[1:]:
                end = getattr(s, "end_lineno", None)
                if end is not None:
                    first = min([s.lineno] + [d.lineno for d in getattr(s, "decorator_list", [])])
                    assert any(first <= line <= end for line in lines), (text[:60], lines)
            checked += 1
    assert checked > 150


def test_the_project_import_shape_tells_libraries_apart_after_the_match():
    """An import is a shape only when a module it names may be the project's own, in any form
    and anywhere in the file (a function's import too); the test of the module's first word
    runs on each ``import`` word's line instead of inside the pattern (a 70-name alternation
    that cost 0.45 ms to compile in every editor run). The file-level question
    (``imports_project``) gives the same answer as the text shape."""
    from flake8_tensorcopy.syntax import prefilter
    from flake8_tensorcopy.syntax.accumulation_shapes import imports_project

    cases = [("from torch.nn import Linear\n", False), ("from torchvision import x\n", False),
             ("from torch_utils import step\n", True), ("from .torch import step\n", True),
             ("from . import step\n", True), ("from re2 import x\n", True),
             ("from numpy import a\n", False), ("from numpy_helpers import a\n", True),
             ("from torch import x\nfrom mine import y\n", True),
             ("x = 1\n  from mine import y\n", True), ("from\tjson.decoder\timport x\n", False),
             ("from os.path import join\nfrom  model_utils   import Net\n", True),
             ("import torch, numpy as np\n", False), ("import torch, trainer as t\n", True),
             ("import trainer\n", True), ("def f():\n    import utils.io as io\n", True),
             ("import os.path\nimport numpy.linalg as la\n", False),
             ("m = importlib.import_module('trainer')\n", False),
             ("    raise E from err  # import trainer\n", False),
             ("# import trainer\ns = 'import x'\n", False)]
    for text, want in cases:
        assert (prefilter.SHAPES.search(text) is not None) == want, text
        assert imports_project(text) == want, text



def test_accumulations_are_looked_for_only_in_definitions_whose_text_holds_a_loop(monkeypatch):
    """TEN501's loop shapes are read from a definition's tree only when its lines hold ``for``
    or ``while`` as a word (a loop's keyword always is; ``forward``, ``format`` and ``before``
    are not), and a loop's names from its ``backward`` calls only when its lines mention
    ``backward``; the gates change no plan (every source of the suite, the gates forced open)."""
    from flake8_tensorcopy.syntax import accumulation_shapes, prefilter

    seen = []
    real = prefilter._accumulates
    monkeypatch.setattr(prefilter, "_accumulates",
                        lambda node, *a, **k: seen.append(getattr(node, "name", None)) or
                        real(node, *a, **k))
    src = ("import torch\nfrom model import step\n\n\ndef forward(x):\n    return x.format()\n\n\n"
           "def before(m, x):\n    return step(m(x))  # ... for each x\n\n\n"
           "def fit(m, xs):\n    total = 0\n    for(x) in xs:\n        total += step(m(x))\n"
           "    return total\n\n\nasync def feed(q, m):\n    acc = []\n"
           "    async for x in q:\n        acc.append(step(x))\n    while acc:\n"
           "        acc.pop()\n    return acc\n\nfit(1, [])\nfit(2, [])\n")
    found, _ = prefilter.plan(ast.parse(src), src)
    assert found and "forward" not in seen and "fit" in seen and "feed" in seen
    assert "before" in seen  # its comment holds ``for`` as a word: a superset, walked

    trees = list(_trees())
    gated = [prefilter.plan(tree, text) for text, tree in trees]
    monkeypatch.setattr(prefilter._TextIndex, "has_loop", lambda self, node: True)
    monkeypatch.setattr(prefilter, "_accumulates",
                        lambda node, b, c, calls, mentions=None, stores=False, keepers=():
                        accumulation_shapes.accumulates(node, b, c, calls, stores=stores,
                                                        keepers=frozenset(keepers)))
    assert gated == [prefilter.plan(tree, text) for text, tree in trees]
    assert sum(found for found, _ in gated) > 50


# TEN501 through a project function that differentiates what it returns, called in a loop of a
# file that neither calls ``backward`` nor calls the function twice: the ways a loop reaches it
_TRAINER = ("import torch\n\n\nclass Trainer:\n    def __init__(self, model, opt):\n"
            "        self.model, self.opt = model, opt\n\n    def train_step(self, x):\n"
            "        out = self.model(x)\n        a = out.pow(2).mean()\n        total = a + 1\n"
            "        total.backward()\n        return a, total\n\n\n"
            "def train_step(model, x):\n    loss = model(x).sum()\n    loss.backward()\n"
            "    return loss\n")
_LOOPS = {
    "a method of a project class's instance":
        ("from trainer import Trainer\n", "    util = Trainer(net, opt)\n",
         "        a, total = util.train_step(x)\n        acc += total\n"),
    "an instance made in the loop":
        ("from trainer import Trainer\n", "",
         "        a, total = Trainer(net, opt).train_step(x)\n        acc += total\n"),
    "a function imported inside the function":
        ("", "    from trainer import train_step\n",
         "        acc += train_step(net, x)\n"),
    "a class of a module imported whole":
        ("import trainer\n", "    util = trainer.Trainer(net, opt)\n",
         "        a, total = util.train_step(x)\n        acc += total\n"),
    "a function of a module imported whole":
        ("import trainer\n", "", "        acc += trainer.train_step(net, x)\n"),
    "a star import": ("from trainer import *\n", "", "        acc += train_step(net, x)\n"),
    "a relative import in a package":
        ("from .trainer import train_step\n", "", "        acc += train_step(net, x)\n"),
    "a local function wrapping it":
        ("from trainer import train_step\n\n\ndef wrap(n, x):\n    return train_step(n, x)\n",
         "", "        acc += wrap(net, x)\n"),
    "an append of its result":
        ("from trainer import train_step\n", "", "        hist.append(train_step(net, x))\n"),
}


@pytest.mark.parametrize("how", sorted(_LOOPS))
@pytest.mark.parametrize("where", ["function", "method"])
def test_the_prefilter_keeps_loops_that_may_call_a_differentiating_project_function(
        tmp_path, how, where):
    """A loop that accumulates what a project function returns after differentiating it is a
    TEN501 candidate in any file that imports its project's modules (anywhere, in any form),
    not only in one that calls ``backward`` itself or calls the enclosing function twice: the
    pre-filtered analysis reports what the whole analysis reports (before: nothing)."""
    imp, pre, loop = _LOOPS[how]
    if where == "method":
        head = "class Runner:\n    def fit(self, net, opt, batches):\n"
        body = "".join("    " + line + "\n" for line in (
            pre + "    acc = 0\n    hist = []\n    for x in batches:\n" + loop +
            "    return acc, hist\n").splitlines())
    else:
        head = "def fit(net, opt, batches):\n"
        body = pre + "    acc = 0\n    hist = []\n    for x in batches:\n" + loop + \
            "    return acc, hist\n"
    src = "import torch\n" + imp + "\n\n" + head + body
    package = tmp_path / "pkg"
    package.mkdir()
    (tmp_path / "setup.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "trainer.py").write_text(_TRAINER)
    (tmp_path / "trainer.py").write_text(_TRAINER)
    path = package / "train.py" if imp.startswith("from .") else tmp_path / "train.py"
    path.write_text(src)
    full = analyze(src, prefilter=False, filename=str(path))
    assert [d.code for d in full] == ["TEN501"], src
    assert analyze(src, filename=str(path)) == full


def test_each_text_branch_word_begins_every_match_of_its_pattern():
    """``_ShapeText`` skips a branch whose word a text lacks: the word must begin every match
    (``re``'s own parse: literals first, no alternation above them)."""
    try:
        import re._parser as sre_parse  # 3.11+
    except ImportError:  # 3.9, 3.10
        import sre_parse

    from flake8_tensorcopy.syntax.prefilter import SHAPES, TREE_SHAPES, _leading_word

    literal = sre_parse.LITERAL if hasattr(sre_parse, "LITERAL") else None
    checked = 0
    for shapes in (SHAPES, TREE_SHAPES):
        for pattern, word in zip(shapes.branches, shapes.words):
            if word is None:
                continue
            parsed = list(sre_parse.parse(pattern.pattern))
            head = [(op, av) for op, av in parsed[:len(word)]]
            assert head == [(literal, ord(c)) for c in word], pattern.pattern
            checked += 1
    assert checked >= 20
    # a word followed by a quantifier or an alternation begins no match for sure
    assert _leading_word(r"abcd*e") is None and _leading_word(r"abc|xyz") is None
    assert _leading_word(r"ab\s*\(") is None and _leading_word(r"\.\s*data") is None
    assert _leading_word(r"detach\s*\(") == "detach"


@pytest.mark.parametrize("line", [
    "old = list(model.parameters())", "old = [p for p in model.parameters()]",
    "w = model.state_dict()['weight']", "b = dict(model.state_dict().items())",
    "v = list(model.state_dict().values())"])
def test_the_plan_keeps_a_function_whose_only_candidate_is_a_newer_snapshot_form(line):
    """TEN402's ninth-session forms: the plan keeps them (it must never hide a diagnostic)."""
    name = line.split(" = ")[0]
    src = ("def f(model, opt, loader):\n    " + line + "\n    for x in loader:\n"
           "        model(x).sum().backward()\n        opt.step()\n    return " + name + "\n")
    assert has_candidates(ast.parse(src))
    assert [d.code for d in analyze(src)] == ["TEN402"]


def test_the_plan_keeps_a_copy_between_two_named_views():
    """TEN403's ``d = x[:, :-c]; s = x[:, c:]; d.copy_(s)``: kept alone (and a copy between
    views of two tensors is not a shape)."""
    src = ("import torch\n\n\ndef f(x: torch.Tensor, c: int):\n    d = x[:, :-c]\n"
           "    s = x[:, c:]\n    d.copy_(s)\n    return x\n")
    assert has_candidates(ast.parse(src))
    assert [d.code for d in analyze(src)] == ["TEN403"]
    other = src.replace("s = x[:, c:]", "s = y[:, c:]").replace("c: int", "c: int, y=None")
    assert not has_candidates(ast.parse(other))


def test_helpers_filling_a_list_their_caller_hands_them():
    """TEN501's helper that appends what it computes to a list parameter (twenty-second
    session): the pre-filter keeps a top-level function that appends to a positional parameter
    (``appends_to_parameter``), and ``grad_callers.list_handing_calls`` finds the calls in a
    loop that hand it the same list every turn: not a list bound in the loop, emptied there,
    bound twice, or handed at another position."""
    import ast

    from flake8_tensorcopy.syntax.accumulation_shapes import appends_to_parameter
    from flake8_tensorcopy.syntax.grad_callers import list_handing_calls

    src = ("def collect(model, x, sink):\n    sink.append(model(x))\n\n\n"
           "def local(model, x):\n    out = []\n    out.append(model(x))\n    return out\n\n\n"
           "def train(model, batches):\n    kept, other, twice = [], [], []\n    twice = []\n"
           "    for x in batches:\n        collect(model, x, kept)\n        fresh = []\n"
           "        collect(model, x, fresh)\n        collect(model, x, other)\n"
           "        other.clear()\n        collect(model, x, twice)\n"
           "        collect(model, kept, x)\n")
    tree = ast.parse(src)
    collect, local = tree.body[0], tree.body[1]
    assert appends_to_parameter(collect) and not appends_to_parameter(local)
    found = [(owner.name, call.lineno) for owner, call in list_handing_calls(tree, collect, "sink")]
    assert found == [("train", 15)], found
    # by position: only the last call hands a kept list where ``collect`` takes ``x``
    assert [(o.name, c.lineno) for o, c in list_handing_calls(tree, collect, "x")] == [
        ("train", 21)]
    rebinds = ast.parse("def collect(model, x, sink):\n    sink = list(sink)\n"
                        "    sink.append(model(x))\n").body[0]
    assert list(list_handing_calls(tree, rebinds, "sink")) == []  # its own list, not the caller's


@pytest.mark.parametrize("line", [
    "w0 = model.fc.weight", "w0 = model.fc.weight.reshape(-1)  # before training",
    "w0 = model.fc.weight.detach()", "w0 = torch.as_tensor(model.fc.weight)",
    "w0 = model.fc.weight.view(-1)"])
def test_the_plan_keeps_a_function_keeping_one_parameter(line):
    """TEN402's single parameter kept under a name and measured against itself after a step:
    the plan keeps the function (its only candidate), the rule reports it."""
    src = ("import torch\n\n\ndef f(model, opt, loader):\n    " + line + "\n"
           "    for x in loader:\n        model(x).sum().backward()\n        opt.step()\n"
           "    return (model.fc.weight - w0).norm()\n")
    assert has_candidates(ast.parse(src))
    assert [d.code for d in analyze(src)] == ["TEN402"]


def test_a_parameter_handed_to_a_call_or_cloned_is_no_candidate():
    assert not has_candidates(ast.parse("import torch\nnn.init.zeros_(m.bias)\n"))
    assert not has_candidates(ast.parse("w0 = model.fc.weight.clone()\n"))
    assert not has_candidates(ast.parse("y = self.fc.weight @ x\n"))


@pytest.mark.parametrize("binding, keeps", [
    ("log_loss = functools.partial(record, store, 'loss')", True),
    ("log_loss = lambda v: store.append(v)", True),
    ("log_loss = make_recorder()", True),
    ("log_loss = print", False),  # a name bound to no keeper: one argument, no candidate
])
def test_the_plan_keeps_a_loop_handing_one_value_to_a_named_keeper(binding, keeps, tmp_path):
    """TEN501 through ``functools.partial``, a lambda, or a factory's function, called with the
    one value it keeps (``accumulate_keepers``): the plan keeps the loop; the rule reports it.
    A call of another name with one argument is no candidate."""
    src = ("import functools\nimport torch\n\n\ndef record(store, key, value):\n"
           "    store.setdefault(key, []).append(value)\n\n\ndef make_recorder():\n"
           "    values = []\n\n    def rec(v):\n        values.append(v)\n    return rec\n\n\n"
           "store = []\n" + binding + "\n\n\ndef train(model, opt, data):\n"
           "    for x in data:\n        loss = model(x).sum()\n        loss.backward()\n"
           "        opt.step()\n        log_loss(loss)\n")
    assert has_candidates(ast.parse(src)) is keeps
    path = tmp_path / "train.py"  # (the project index finds ``record`` and ``make_recorder``)
    path.write_text(src)
    assert [d.code for d in analyze(src, filename=str(path))] == (["TEN501"] if keeps else [])


@pytest.mark.parametrize("body, kept", [
    ("for e, p in zip(ema.parameters(), model.parameters()):\n        e.mul_(d).add_(p, alpha=a)",
     True),
    ("for e, p in zip(ema.parameters(), model.parameters()):\n        e += p", True),
    ("for n, p in model.named_parameters():\n        self.shadow[n] = d * self.shadow[n] + p",
     True),
    ("for n, p in model.named_parameters():\n        self.shadow[n] += p", True),
    # rebinding the loop's own name keeps nothing; a loop over something else is no walk
    ("for e, p in zip(ema.parameters(), model.parameters()):\n        e = e * d + p", False),
    ("for e, p in zip(rows, cols):\n        e.add_(p)", False),
    ("for p in model.parameters():\n        total = total + p.norm()", False),
])
def test_an_update_from_a_module_s_parameters(body, kept):
    """The pre-filter keeps a definition whose loop over a module's parameters adds in place
    into its own variable, or into an item or attribute of ``self`` (TEN501's per-call
    accumulation: ``syntax/parameter_shapes``)."""
    from flake8_tensorcopy.syntax.parameter_shapes import updates_from_parameters

    fn = ast.parse(f"def update(self, model, ema, d, a):\n    {body}\n").body[0]
    assert updates_from_parameters(fn) is kept
