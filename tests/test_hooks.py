"""How the walk picks the rules to call for a node (``rules.base.hook_tables``): a rule that
declares the callees it wants (``hook_quals``) is called for their calls only, and nothing it
reports changes."""
import glob
import os

from flake8_tensorcopy import engine
from flake8_tensorcopy.engine import analyze
from flake8_tensorcopy.rules import ALL_RULES
from flake8_tensorcopy.rules.base import hook_tables
from flake8_tensorcopy.syntax import nodes

from .conftest import FIXTURES, ROOT


def _sources():
    for rule in ALL_RULES:
        for ex in rule.invalid:
            yield ex.before
        yield from rule.valid
    for path in sorted(glob.glob(os.path.join(FIXTURES, "*.py")) +
                       glob.glob(os.path.join(ROOT, "examples", "*.py"))):
        with open(path, encoding="utf-8") as fh:
            yield fh.read()


def _analyze_all(sources):
    """Each source's diagnostics, or the type of the exception the engine refuses it with."""
    out = []
    for src in sources:
        try:
            out.append(analyze(src))
        except Exception as exc:  # a source the engine refuses is refused the same way
            out.append(type(exc))
    return out


def _counted(monkeypatch, owner, name):
    """The first arguments (after ``self``) of each call of ``owner.name`` from now on."""
    calls = []
    real = getattr(owner, name)

    def counted(self, first, *rest):
        calls.append(first)
        return real(self, first, *rest)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_rules_skipped_by_callee_or_state_report_what_they_report_when_always_asked(monkeypatch):
    sources = list(_sources())
    picked = _analyze_all(sources)
    with_quals = [r for r in ALL_RULES if r.hook_quals]
    assert len(with_quals) >= 3
    for rule in with_quals:
        monkeypatch.setattr(type(rule), "hook_quals", {})
    (alias,) = [r for r in ALL_RULES if r.code == "TEN401"]
    monkeypatch.setattr(type(alias), "check", type(alias)._check)  # asked even before an alias
    every = _analyze_all(sources)
    assert picked == every
    assert sum(1 for d in picked if isinstance(d, list) and d) > 30


def test_a_rule_picked_by_callee_is_called_for_its_calls_only(monkeypatch):
    (rule,) = [r for r in ALL_RULES if r.code == "TEN201"]
    calls = _counted(monkeypatch, type(rule), "check")
    src = "import torch\n\n\ndef f(x: torch.Tensor):\n" + "".join(
        f"    y{i} = x.float().abs().sum(dim={i})\n" for i in range(50)) + \
        "    return torch.tensor(x)\n"
    (d,) = [d for d in analyze(src) if d.code == "TEN201"]
    assert d.line == 55 and len(calls) == 1


def test_hook_tables_keep_the_rules_order():
    every, named, by_qual = hook_tables(ALL_RULES)
    order = {id(r): i for i, r in enumerate(ALL_RULES)}
    for table in [every, by_qual] + list(named.values()):
        for rules in table.values():
            assert [order[id(r)] for r in rules] == sorted(order[id(r)] for r in rules)
    assert not any(r.hook_quals for r in every.get(nodes.Call, ()))
    assert {r.code for r in by_qual["torch.tensor"]} == {"TEN201", "TEN204"}
    # the walk merges a call's rules picked by name with those picked by its callee in order
    walker_order = [r.code for r in engine.ALL_RULES]
    assert walker_order == [r.code for r in ALL_RULES]


def test_a_constant_accumulated_in_a_loop_reads_nothing_of_the_loop(monkeypatch):
    """``steps += 1`` in a loop: TEN501 cannot fire on it (no carrier, no call that may hold a
    graph), so that loop's facts are not gathered for it; ``total += loss`` still is reported."""
    from flake8_tensorcopy.rules import accumulate_loops

    made = _counted(monkeypatch, accumulate_loops.LoopFacts, "__init__")
    src = ("import torch\n\n\ndef train(model, opt, data):\n    steps = total = 0\n"
           "    for x in data:\n        loss = model(x).sum()\n        loss.backward()\n"
           "        opt.step()\n        total += loss\n"
           "    for i in range(3):\n        steps += 1\n        steps = steps + 2\n")
    (d,) = analyze(src)
    assert d.code == "TEN501" and d.line == 10
    assert len(made) == 1  # the first loop's, for ``total += loss``


def test_no_write_is_followed_until_a_name_holds_an_alias(monkeypatch):
    """TEN401 follows a write to its alias only once some name holds one (``y = x.detach()``,
    ``y = x.data``, doubted or not): before, its checks return at once."""
    (rule,) = [r for r in ALL_RULES if r.code == "TEN401"]
    asked = _counted(monkeypatch, type(rule), "_check")
    body = "".join(f"    x.add_({i})\n    x[{i}] = 0\n" for i in range(30))
    src = "import torch\n\n\ndef f(x: torch.Tensor):\n" + body + "    return x.detach()\n"
    assert analyze(src) == [] and asked == []
    for alias in ("x.detach()", "x.data"):
        for bind in ("    y = {}\n", "    for _ in range(2):\n        y = {}\n"):
            del asked[:]
            src2 = src.replace("    return x.detach()\n", bind.format(alias) + "    y.zero_()\n"
                               "    return x\n")
            assert "TEN401" in [d.code for d in analyze(src2)], src2  # (``.data``: TEN101 too)
            assert len(asked) == 1  # only the write after the binding


def test_the_walk_passes_over_leaves_and_wrappers_and_reports_the_same(monkeypatch):
    """``Walker.children`` does not walk names, numbers, strings or None, and walks an
    ``Arg``, ``Element``, ``Index``... as the node it holds: a file's diagnostics are the ones
    of the walk that visits every node, with far fewer visits."""
    sources = list(_sources())
    walked = _counted(monkeypatch, engine.Walker, "walk")
    short = _analyze_all(sources)
    passed = {nodes.Name, nodes.Integer, nodes.SimpleString, nodes.Arg, nodes.Element,
              nodes.Index, nodes.SubscriptElement}
    few, few_passed = len(walked), sum(1 for n in walked if type(n) in passed)
    del walked[:]
    monkeypatch.setattr(engine, "_NOTHING", frozenset({type(None)}))
    monkeypatch.setattr(engine, "_WRAPPERS", ())
    every = _analyze_all(sources)
    assert every == short
    assert sum(1 for d in short if isinstance(d, list) and d) > 30
    # (what is still walked of these: a value a statement's own method walks, ``x = y``)
    assert few_passed < 0.25 * sum(1 for n in walked if type(n) in passed)
    assert few < 0.7 * len(walked)


def test_a_call_of_a_method_no_picked_callee_ends_with_is_not_resolved(monkeypatch):
    """The callees that pick rules (``hook_quals``) end with names an attribute call must
    spell: ``x.float()`` is not resolved for them; a bare name (maybe an alias) still is."""
    from flake8_tensorcopy.rules.context import Context

    asked = _counted(monkeypatch, Context, "qualname")
    src = "import torch\nfrom torch import tensor as T\n\n\ndef f(x: torch.Tensor):\n" + "".join(
        f"    y{i} = x.float().abs().sum(dim={i})\n" for i in range(20)) + \
        "    z = T(x)\n    return torch.tensor(x)\n"
    found = [(d.code, d.line) for d in analyze(src) if d.code == "TEN201"]
    assert found == [("TEN201", 26), ("TEN201", 27)]
    names = [n.attr.value if isinstance(n, nodes.Attribute) else getattr(n, "value", None)
             for n in asked]
    assert not {"float", "abs", "sum"} & set(names)
    assert "T" in names and "tensor" in names


def test_a_call_argument_is_looked_up_in_the_torch_table_only_when_its_chain_starts_at_data(
        monkeypatch):
    """``f(x.view(-1).abs())`` starts at no ``X.data``: its methods are not looked up for the
    notes on ``.data`` uses (``datanotes._data_under_tensor_methods``); ``f(x.data.view(-1))``
    still is, and noted."""
    from flake8_tensorcopy import datanotes

    asked = []
    real = datanotes.torch_api.method_return

    def counted(*args):
        asked.append(args[0])
        return real(*args)

    monkeypatch.setattr(datanotes.torch_api, "method_return", counted)
    src = "import torch\n\n\ndef f(x: torch.Tensor, g):\n" + "".join(
        f"    g(x.view(-1).abs().add({i}))\n" for i in range(20)) + \
        "    y = torch.zeros(3)\n    y.copy_(x.data.view(-1))\n"
    found = [d.code for d in analyze(src)]
    assert asked == ["view"] and {"TEN101", "TEN102"} & set(found), (asked, found)


def test_the_hook_tables_are_made_once_for_the_same_rules_and_again_when_they_change(
        monkeypatch):
    """``engine._hook_tables``: the walk of every file asks the same rules, whose tables are
    made once; a rule whose declared hooks change gets new ones (never stale)."""
    made = []
    real = engine.hook_tables
    monkeypatch.setattr(engine, "hook_tables", lambda rules: made.append(1) or real(rules))
    monkeypatch.setattr(engine, "_HOOK_TABLES", {})
    src = "import torch\n\n\ndef f(x: torch.Tensor):\n    return torch.tensor(x)\n"
    for _ in range(5):
        assert [d.code for d in analyze(src)] == ["TEN201"]
    assert len(made) == 1
    (rule,) = [r for r in ALL_RULES if r.code == "TEN201"]
    monkeypatch.setattr(type(rule), "hook_quals", {})
    assert rule in engine._HOOK_TABLES[next(iter(engine._HOOK_TABLES))][2]["torch.tensor"]
    assert [d.code for d in analyze(src)] == ["TEN201"]  # asked of every call now
    assert len(made) == 2
    assert rule not in engine._hook_tables(ALL_RULES)[2].get("torch.tensor", [])
    assert len(made) == 2


def test_statement_rules_make_no_generator_for_a_statement_they_cannot_report(monkeypatch):
    """TEN402, TEN403 and TEN501 are asked of every assignment: a plain ``check`` answers
    ``()`` for one that binds no state dict, writes no subscript from another or accumulates
    nothing, and their generators (``_check``) run only for the others, which still report."""
    codes = ("TEN402", "TEN403", "TEN501")
    asked = {code: _counted(monkeypatch, type(rule), "_check")
             for rule in ALL_RULES for code in codes if rule.code == code}
    src = ("import torch\n\n\ndef f(model, x: torch.Tensor, opt):\n" + "".join(
        f"    y{i} = x.abs() * {i}\n" for i in range(40)) +
        "    x[1:] = x[:-1]\n    best = model.state_dict()\n    opt.step()\n"
        "    model.load_state_dict(best)\n    total = 0\n    for i in range(3):\n"
        "        loss = model(x).sum()\n        loss.backward()\n        total += loss\n"
        "    return total\n")
    found = {d.code for d in analyze(src)}
    assert set(codes) <= found, found
    assert all(0 < len(calls) <= 3 for calls in asked.values()), \
        {code: len(calls) for code, calls in asked.items()}


def test_within_gives_the_nodes_children_give_in_the_same_order():
    """``nodes.within`` (kids pushed last first, lists expanded off the stack) yields what the
    recursive walk over ``Node.children`` yields, in the same order, stopping at the same
    definitions, over every statement of the rules' examples, fixtures and examples."""
    from flake8_tensorcopy.syntax import build
    from flake8_tensorcopy.syntax.positions import Text

    def old(node, stop):
        todo = [node]
        while todo:
            n = todo.pop()
            if type(n) is list:
                todo.extend(reversed(n))
                continue
            if n is not node and type(n) in stop:
                continue
            yield n
            todo.extend(reversed([c for c in n.children if c is not None]))

    import ast

    stop = (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda)
    compared = 0
    for src in _sources():
        try:
            tree = ast.parse(src)
        except SyntaxError:
            continue
        module = build.build(tree, src, Text(src), None)
        for root in [module] + list(nodes.within(module)):
            for s in ((), stop):
                assert [id(n) for n in nodes.within(root, s)] == [id(n) for n in old(root, s)]
            compared += 1
    assert compared > 15000
