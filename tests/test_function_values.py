"""``semantic.index.function_values``: which names stand for a module's own functions where they
are called (a loop over a display or a module-level list of them, a parameter its callers hand
one of them), read from the ``ast`` alone."""
import ast

from flake8_tensorcopy.semantic.index.function_values import (
    LOOP_OVER_NAME, handed, handed_at, listed_functions, loop_names, stand_ins)

SRC = '''
def a(x): pass
def b(x): pass
AUGS = [a, b]
TABLE = {"a": a, "b": b}
MIXED = [a, 1]
def run(step, other=None):
    for fn in AUGS:
        fn(1)
    step(2)
def twice(step):
    step = a
    step(3)
def main():
    run(a)
    run(b, other=a)
    for fn in (a, b):
        twice(fn)
    for name, fn in TABLE.items():
        run(fn)
def shadow():
    a = 3
    run(a)
'''


def _tree():
    return ast.parse(SRC)


def test_listed_functions_keeps_displays_of_plain_names_only():
    tree = _tree()
    assigns = {s.targets[0].id: s.value for s in tree.body if isinstance(s, ast.Assign)}
    assert listed_functions(assigns) == {"AUGS": ("a", "b"), "TABLE": ("a", "b")}


def test_loop_names_over_a_display_a_listed_name_and_its_items():
    tree = _tree()
    listed = {"AUGS": ("a", "b"), "TABLE": ("a", "b")}
    run = tree.body[5]
    assert loop_names(run.body[0], listed) == {"fn": ("a", "b")}
    assert loop_names(run.body[0], listed, frozenset({"AUGS"})) == {}  # shadowed by a local
    main = tree.body[7]
    assert loop_names(main.body[2], listed) == {"fn": ("a", "b")}  # a display
    assert loop_names(main.body[3], listed) == {"fn": ("a", "b")}  # TABLE.items()
    values = ast.parse("for f in TABLE.values():\n    f(1)\n").body[0]
    assert loop_names(values, listed) == {"f": ("a", "b")}
    rebound = ast.parse("for f in AUGS:\n    f = g\n    f(1)\n").body[0]
    assert loop_names(rebound, listed) == {}


def test_handed_and_stand_ins():
    tree = _tree()
    got = handed(tree, {"a", "b", "run", "twice", "main", "shadow"},
                 {"AUGS": ("a", "b"), "TABLE": ("a", "b")})
    assert got["run"] == {0: {"a", "b"}, "other": {"a"}}  # ``shadow``'s local ``a`` is not
    assert got["twice"] == {0: {"a", "b"}}
    run, twice = tree.body[5], tree.body[6]
    assert stand_ins(run, got["run"]) == {"step": ("a", "b"), "other": ("a",)}
    assert stand_ins(twice, got["twice"]) == {}  # ``step`` is rebound before its call


def test_text_patterns_find_the_superset():
    assert [m.groups() for m in LOOP_OVER_NAME.finditer(SRC)] == [
        ("fn", "AUGS"), ("fn", "TABLE")]
    lines = SRC.splitlines()
    at = {name: [SRC[:i].count("\n") for i in handed_at(SRC, name)] for name in ("a", "fn")}
    # a superset: every argument spelled so (a display's item too), never a call's name
    assert {"run(a)", "run(b, other=a)", "for fn in (a, b):"} == {lines[n].strip()
                                                                for n in at["a"]}
    assert [lines[n].strip() for n in at["fn"]] == ["twice(fn)", "run(fn)"]
    assert list(handed_at("f(a)(b)\nab(a2, a_)\nx.a(1)\ng(k=a)\nh(a == 1)", "a")) == [2, 30]


def test_picked_names():
    """``fn = TABLE[name]`` of a module-level display stands for each of its functions, where
    the function binds ``fn`` nowhere else and no local shadows the table."""
    from flake8_tensorcopy.semantic.index.function_values import picked_names

    fn = ast.parse("def run(name):\n    fn = TABLE[name]\n    return fn(1)\n").body[0]
    listed = {"TABLE": ("a", "b")}
    assert picked_names(fn.body[0], listed, fn) == {"fn": ("a", "b")}
    assert picked_names(fn.body[0], listed, fn, frozenset({"TABLE"})) == {}
    twice = ast.parse("def run(name):\n    fn = TABLE[name]\n    fn = g\n").body[0]
    assert picked_names(twice.body[0], listed, twice) == {}
    assert picked_names(fn.body[0], {}, fn) == {}
