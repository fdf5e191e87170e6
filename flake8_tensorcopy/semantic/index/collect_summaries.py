"""What a project function keeps of its arguments beyond the call, read from its own code once
and kept with its module's facts (``statedict_summaries.kept_per_function``):

- ``collects``: a parameter it appends to another parameter (``def record(store, value):
  store.append(value)``): whatever the caller passes as ``store`` keeps what it passes as
  ``value``;
- ``logs``: a parameter it appends to a module-level container of its own module, or adds into
  a module-level number it declares ``global`` (``LOSSES.append(loss)``, ``global TOTAL;
  TOTAL += loss``): the module keeps it for the rest of the run.

Both are worked out when a call statement in a loop asks (TEN501's ``method_accumulation``),
not with every graph summary, and one walk of the function answers both.
"""
from __future__ import annotations

import ast
import weakref
from typing import Dict, Tuple

from ...syntax.source import any_line_within
from ...syntax.walk import own_nodes
from .. import graph
from .statedict_summaries import kept_per_function

#: module facts -> {id(function facts): (function facts, (``collects``, ``logs``))}
_KEPT: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_NONE: Tuple[Dict[int, int], Dict[int, str]] = ({}, {})
_WORDS = ("append", "extend", "global", "+")


def collects(fn) -> Dict[int, int]:
    """Call position of a parameter of project function ``fn`` (a ``FuncFacts``) -> call
    position of the parameter it appends it to (``def record(store, value):
    store.append(value)``: 1 -> 0)."""
    return _kept(fn)[0]


def logs(fn) -> Dict[int, str]:
    """Call position of a parameter of project function ``fn`` (not a method) -> the
    module-level name it appends it to or adds it into (``LOSSES``)."""
    return _kept(fn)[1]


def _kept(fn) -> Tuple[Dict[int, int], Dict[int, str]]:
    first, last = getattr(fn, "_first", None), getattr(fn, "_last", None)
    spots = [fn.module.word_lines(w) for w in _WORDS]
    if first is not None and None not in spots and not any(
            any_line_within(s, first, last) for s in spots):
        return _NONE  # none of the words in its lines: nothing kept (the text, before the walk)
    decorators = {graph.dotted(d) for d in fn.node.decorator_list}
    static = "staticmethod" in decorators
    top = None if fn.cls is not None else fn.module.top_level_kind
    if "classmethod" in decorators:
        # ``cls.records.append(value)``: a list the class binds in its body, kept by the class
        lists = class_lists(fn.cls)
        top = lambda name: "container" if name in lists else None  # noqa: E731
    return kept_per_function(fn, _KEPT, lambda node: _walk(
        node, 0 if fn.cls is None or static else 1, top), _NONE)


def class_lists(cls) -> frozenset:
    """``cls.X`` for each ``X = []`` (or ``list()``) a class's own body binds."""
    node = getattr(cls, "node", None)
    return frozenset(f"cls.{t.id}" for s in getattr(node, "body", ()) if type(s) is ast.Assign
                     and (type(s.value) is ast.List and not s.value.elts or
                          type(s.value) is ast.Call and graph.dotted(s.value.func) == "list"
                          and not s.value.args)
                     for t in s.targets if type(t) is ast.Name)


def _walk(fn, offset: int, top) -> Tuple[Dict[int, int], Dict[int, str]]:
    """One walk of ``fn``'s own code: (``collects``, ``logs``). Appended: ``store.append(value)``,
    ``store.append((step, value))``, ``store.append({"loss": value})``,
    ``store[k].append(value)``, ``store.setdefault(k, []).append(value)``,
    ``store.extend([value])``, each value of a parameter in a loop over its items
    (``for k, v in metrics.items(): store[k].append(v)``, of ``**metrics`` too); added (a ``global`` name only): ``TOTAL += value``. Neither side
    may be bound in the function (a ``global`` name may, by the ``+=`` itself)."""
    params = graph.function_params(fn)
    pos = {name: i - offset for i, name in enumerate(params) if i >= offset}
    rebound = set()
    declared = set()
    found: Dict[int, int] = {}
    into_module: Dict[int, str] = {}
    each: Dict[str, str] = {}  # a loop's value -> the parameter whose values it takes
    for n in own_nodes(fn):  # (a loop before the statements of its body)
        t = type(n)
        if t is ast.For:
            _each_value(n, pos, each)
        if t is ast.Global:
            declared.update(n.names)
            continue
        if t is ast.AugAssign and type(n.op) is ast.Add and type(n.target) is ast.Name and \
                type(n.value) is ast.Name and n.value.id in pos and top is not None and \
                top(n.target.id) == "number":
            into_module.setdefault(pos[n.value.id], n.target.id)  # kept if ``global`` below
        if t is ast.Assign or t is ast.AugAssign or t is ast.AnnAssign or t is ast.For or \
                t is ast.NamedExpr:
            for target in (n.targets if t is ast.Assign else [n.target]):
                rebound.update(_bound_names(target))
                added = _item_added(target, n, t)
                if added is not None and added[0] in pos and added[1] in pos and \
                        added[0] != added[1]:
                    found.setdefault(pos[added[1]], pos[added[0]])
            continue
        if t is not ast.Expr or type(n.value) is not ast.Call:
            continue
        call = n.value
        f = call.func
        if type(f) is not ast.Attribute or f.attr not in ("append", "extend") or \
                len(call.args) != 1 or call.keywords:
            continue
        recv = f.value
        if type(recv) is ast.Subscript:
            recv = recv.value
        elif type(recv) is ast.Call and type(recv.func) is ast.Attribute and \
                recv.func.attr == "setdefault":
            recv = recv.func.value
        if type(recv) is ast.Attribute and type(recv.value) is ast.Name and \
                recv.value.id == "cls" and top is not None and top(f"cls.{recv.attr}"):
            recv = ast.Name(id=f"cls.{recv.attr}")  # a classmethod's list of its class
        if type(recv) is not ast.Name:
            continue
        arg = call.args[0]
        items = arg.elts if f.attr == "extend" and type(arg) in (ast.List, ast.Tuple) else \
            [] if f.attr != "append" else arg.elts if type(arg) is ast.Tuple else \
            arg.values if type(arg) is ast.Dict else [arg]
        # (``store.append((step, value))``, ``store.append({"loss": value})``: the display
        # holds the value)
        for v in items:
            name = each.get(v.id, v.id) if type(v) is ast.Name else None
            if name is None or name not in pos or name == recv.id:
                continue
            if recv.id in pos:
                found.setdefault(pos[name], pos[recv.id])
            elif top is not None and top(recv.id) == "container":
                into_module.setdefault(pos[name], recv.id)
    names = {i: name for name, i in pos.items()}
    collected = {k: a for k, a in found.items()
                 if names[k] not in rebound and names[a] not in rebound}
    logged = {k: g for k, g in into_module.items() if names[k] not in rebound and (
        g in declared if top(g) == "number" else g not in rebound or g in declared)}
    return collected, logged


def _each_value(loop: ast.For, pos: Dict[str, int], each: Dict[str, str]) -> None:
    """``for key, value in metrics.items()``, ``for value in metrics.values()`` of a parameter
    (``**metrics`` too): appending ``value`` keeps an item of ``metrics``."""
    it, tgt = loop.iter, loop.target
    if type(it) is not ast.Call or type(it.func) is not ast.Attribute or it.args or \
            type(it.func.value) is not ast.Name or it.func.value.id not in pos:
        return
    if it.func.attr == "items" and type(tgt) is ast.Tuple and len(tgt.elts) == 2:
        tgt = tgt.elts[1]
    elif it.func.attr != "values":
        return
    if type(tgt) is ast.Name:
        each[tgt.id] = it.func.value.id


def _bound_names(target) -> list:
    """The names an assignment to ``target`` binds (not those read in a subscript or attribute
    target: ``stats[key] = v`` binds nothing)."""
    t = type(target)
    if t is ast.Name:
        return [target.id]
    if t is ast.Tuple or t is ast.List:
        return [x for e in target.elts for x in _bound_names(e)]
    if t is ast.Starred:
        return _bound_names(target.value)
    return []


def _item_added(target, stmt, t):
    """(the dict, the value) of ``store[k] += value`` or ``store[k] = store.get(k, 0) + value``
    (either order, ``store[k] + value`` too) of two plain names, else None."""
    if type(target) is not ast.Subscript or type(target.value) is not ast.Name:
        return None
    store = target.value.id
    if t is ast.AugAssign:
        ok = type(stmt.op) is ast.Add and type(stmt.value) is ast.Name
        return (store, stmt.value.id) if ok else None
    v = stmt.value if t is ast.Assign and len(stmt.targets) == 1 else None
    if type(v) is not ast.BinOp or type(v.op) is not ast.Add:
        return None
    for mine, other in ((v.left, v.right), (v.right, v.left)):
        if type(other) is ast.Name and _read_of(mine, store):
            return store, other.id
    return None


def _read_of(node, store: str) -> bool:
    """``store[k]`` or ``store.get(k, ...)``."""
    if type(node) is ast.Subscript:
        return type(node.value) is ast.Name and node.value.id == store
    return type(node) is ast.Call and type(node.func) is ast.Attribute and \
        node.func.attr == "get" and type(node.func.value) is ast.Name and \
        node.func.value.id == store
