"""Methods walked when first needed (``later.py``): a method with no shape, kept only for what it
binds on ``self``, is walked when a rule first asks about one of those attributes, and the
answers are those of walking every method in source order."""
import ast
import glob
import os
import random

from flake8_tensorcopy import later
from flake8_tensorcopy.engine import Walker, analyze
from flake8_tensorcopy.flow import note_shared_writes
from flake8_tensorcopy.rules import ALL_RULES
from flake8_tensorcopy.rules.context import Context
from flake8_tensorcopy.semantic.infer import Inference
from flake8_tensorcopy.semantic.kinds import ClassInfo, Kind
from flake8_tensorcopy.syntax import build, nodes
from flake8_tensorcopy.syntax.positions import Text
from flake8_tensorcopy.syntax.prefilter import DEFER, plan

from .conftest import FIXTURES, ROOT

#: past the engine's masking threshold (``engine._MASK_MIN_CHARS``), without changing the code
PAD = "\n" + "# padding\n" * 250


def _norm(k, depth=0):
    if isinstance(k, ClassInfo):
        return ("class", k.cls_name)
    if isinstance(k, Kind):
        slots = [s for c in type(k).__mro__ for s in getattr(c, "__slots__", ())]
        if depth > 3:
            return type(k).__name__
        return (type(k).__name__,) + tuple(
            (s, _norm(getattr(k, s, None), depth + 1)) for s in slots if s != "thunk")
    if isinstance(k, (tuple, list, frozenset)):
        return tuple(_norm(v, depth + 1) for v in k)
    if k is None or isinstance(k, (str, int, bool)):
        return k
    return type(k).__name__


def _walk(src, lazy):
    """The engine's walk of ``src`` with the pre-filter's plan; ``lazy``: with the methods it
    lets wait (else each one built and walked in its place). Returns (reports, what the module
    binds, every class's attributes, the methods walked late, the methods left waiting)."""
    tree = ast.parse(src)
    _, spans = plan(tree, src)
    skip = {start: s for start, end, s in spans if start <= end and (lazy or s is not DEFER)}
    text = Text(src)
    module = build.build(tree, src, text, skip)
    inf = Inference((), (), None)
    note_shared_writes(inf, tree, src)
    ctx = Context(module, inf, src, text)
    walker = Walker(ctx, ALL_RULES)
    walked = []
    walk_later = walker._walk_later

    def counted(entry):
        walked.append(entry.node.name.value)
        walk_later(entry)

    walker._walk_later = counted
    walker.walk(module)
    reports = sorted((r.code, r.node._a.lineno if hasattr(r.node._a, "lineno") else 0,
                      r.message) for r in walker.reports)
    waiting = 0
    classes = {}
    for cls in walker._with_pending:
        waiting += len(cls.pending or ())
    # what the waiting methods would have bound: walk them now, class by class, in order
    for cls in list(walker._with_pending):
        while cls.pending:
            walk_later(cls.pending.pop(0))
    for name, kind in inf.module_scope.names.items():
        if isinstance(kind, ClassInfo):
            classes[name] = {a: _norm(v) for a, v in kind.attrs.items()}
    names = {n: _norm(k) for n, k in inf.module_scope.names.items()}
    walker.drop_pending()
    return reports, names, classes, walked, waiting


def _same(src):
    eager = _walk(src, False)
    lazy = _walk(src, True)
    assert lazy[:3] == eager[:3], src
    assert not eager[3] and not eager[4]
    return lazy


CLASS_SRC = '''import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.fc = nn.Linear(n, n)
        self.scale = torch.ones(n)
        self.steps = 0

    def reset(self):
        self.buf = torch.zeros(3)

    def forward(self, x):
        return self.fc(x) * self.scale
'''


def test_a_method_nothing_asks_about_is_never_built_or_walked():
    reports, _, classes, walked, waiting = _same(CLASS_SRC + PAD)
    assert walked == [] and waiting == 2  # __init__ and reset wait (forward is left out)
    assert reports == []


def test_asking_one_attribute_walks_the_methods_up_to_the_last_that_binds_it():
    src = CLASS_SRC + '''

def train(net):
    net = Net(3)
    return net.scale.data
''' + PAD
    reports, _, classes, walked, waiting = _same(src)
    assert walked == ["__init__"] and waiting == 1  # reset binds only ``buf``
    assert [r[0] for r in reports] == ["TEN101"]
    src2 = src.replace("return net.scale.data", "return net.buf.data")
    _, _, _, walked, waiting = _same(src2)
    assert walked == ["__init__", "reset"] and waiting == 0


def test_a_method_walked_late_sees_the_module_as_it_was_at_its_def():
    src = '''import torch

W = torch.zeros(3)


class A:
    def __init__(self):
        self.w = W


W = [1, 2, 3]


def f():
    a = A()
    return a.w.data
''' + PAD
    reports, names, classes, walked, _ = _same(src)
    assert walked == ["__init__"]
    assert classes["A"]["w"] == _norm(_walk(src, False)[2]["A"]["w"])
    assert [r[0] for r in reports] == ["TEN101"]  # a tensor, as ``W`` was at the ``def``


def test_a_later_method_does_not_change_what_an_earlier_one_saw():
    src = '''import torch


class A:
    def __init__(self):
        self.w = torch.zeros(3)

    def use(self):
        return self.w.data

    def later(self):
        self.w = None


def g(a: A):
    return a.w.data
''' + PAD
    _same(src)


def test_a_method_appending_to_a_list_of_the_module_is_walked_at_once():
    src = '''import torch

saved = []


class A:
    def __init__(self, t):
        saved.append(t)
        self.w = t


for t in saved:
    y = t.data
''' + PAD
    _, names, _, walked, waiting = _same(src)
    assert waiting == 0  # walked in its place: it changes what ``saved`` holds


def test_binds_reads_every_assigned_attribute_and_registered_name():
    fn = ast.parse("def f(self, n):\n    other = self\n    other.a = 1\n    self.b: int = 2\n"
                   "    for self.c in []: pass\n    self.register_buffer('d', n)\n").body[0]
    assert later._attributes(fn)[0] == frozenset("abcd")
    fn = ast.parse("def f(self, n):\n    self.register_buffer(n, n)\n").body[0]
    assert later._attributes(fn) == (None, None)  # a name the tree does not tell: any


def _program(rng):
    """A random module of classes whose shapeless methods bind attributes that other classes,
    candidate methods and module code read, with module names rebound between them."""
    vals = ["torch.zeros(3)", "None", "[]", "x", "n", "torch.tensor([1.0])", "self.a",
            "B()", "nn.Linear(2, 2)", "W", "0"]
    attrs = ["a", "b", "c"]
    lines = ["import torch", "import torch.nn as nn", "", "W = torch.ones(2)", "saved = []", ""]
    for ci, cname in enumerate(["B", "C", "D"][:rng.randint(1, 3)]):
        lines.append(f"class {cname}(nn.Module):")
        for mi in range(rng.randint(1, 4)):
            mname = "__init__" if mi == 0 else f"m{mi}"
            lines.append(f"    def {mname}(self, x=None, n=1):")
            for _ in range(rng.randint(1, 4)):
                attr = rng.choice(attrs)
                kind = rng.random()
                if kind < 0.1:
                    lines.append(f"        self.register_buffer('{attr}', torch.zeros(2))")
                elif kind < 0.15:
                    lines.append("        saved.append(x)")
                elif kind < 0.2:
                    lines.append(f"        other = self\n        other.{attr} = {rng.choice(vals)}")
                elif kind < 0.25:
                    lines.append(f"        if n:\n            self.{attr} = {rng.choice(vals)}")
                else:
                    lines.append(f"        self.{attr} = {rng.choice(vals)}")
            if rng.random() < 0.3:
                lines.append(f"        return self.{rng.choice(attrs)}.data")  # a candidate
        lines.append("")
        if rng.random() < 0.4:
            lines.append(f"W = {rng.choice(['[1]', 'torch.zeros(1)', 'None'])}\n")
        if rng.random() < 0.4:
            lines.append(f"obj{ci} = {cname}()\ny{ci} = obj{ci}.{rng.choice(attrs)}.data\n")
    lines.append("for t in saved:\n    z = t.data\n")
    return "\n".join(lines) + PAD


def test_waiting_changes_nothing_on_generated_classes():
    rng = random.Random(7)
    late = waited = 0
    for _ in range(300):
        src = _program(rng)
        _, _, _, walked, waiting = _same(src)
        late += len(walked)
        waited += waiting
    assert late > 50 and waited > 50  # both paths taken, many times


def test_waiting_changes_nothing_on_the_examples_and_fixtures():
    checked = 0
    for path in sorted(glob.glob(os.path.join(FIXTURES, "*.py")) +
                       glob.glob(os.path.join(ROOT, "examples", "*.py"))):
        with open(path, encoding="utf-8") as fh:
            src = fh.read()
        try:
            ast.parse(src)
        except SyntaxError:
            continue
        _same(src + PAD)
        full = analyze(src + PAD, mask=False)
        assert analyze(src + PAD) == full, path
        checked += 1
    assert checked >= 10


def test_a_deferred_method_is_built_only_when_walked():
    tree = ast.parse(CLASS_SRC + PAD)
    _, spans = plan(tree, CLASS_SRC + PAD)
    assert sum(s is DEFER for _, _, s in spans) == 2
    module = build.build(tree, CLASS_SRC + PAD, Text(CLASS_SRC + PAD),
                         {start: s for start, end, s in spans})
    cls = module.body[2]
    bodies = [type(stmt.body).__name__ for stmt in cls.body.body
              if type(stmt) is nodes.FunctionDef]
    # ``forward`` binds nothing: a body that is never built (no builder; issue 45 keeps its
    # header so the name is bound as in the fixer's view)
    assert bodies == ["LaterBlock", "LaterBlock", "LaterBlock"]
    builders = [stmt.body.builder for stmt in cls.body.body if type(stmt) is nodes.FunctionDef]
    assert builders[0] is not None and builders[1] is not None and builders[2] is None
