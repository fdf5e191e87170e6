"""TEN402 through what a class's methods hand back: a snapshot kept on ``self`` in one method,
read by another method of the class that returns what it computes from it, whose call the file
hands to ``load_state_dict`` (an SWA collector's ``model.load_state_dict(collector
.averaged())``); and whether a returned value holds a container's items at all
(``returns_items``: not ``len(self.states)``)."""
from __future__ import annotations

import ast
from typing import Optional, Set

from ..syntax import nodes
from ..syntax.walk import dotted
from .context import statement_list


def restored_through_getter(ctx, owners: list, name: str) -> Optional[tuple]:
    """``name`` (``self.snapshots``) read by a method of one of ``owners`` (the class and the
    classes related to it) other than the one checked, one that returns a value, called with
    no argument inside the first argument of a ``load_state_dict`` call of the file on a name
    the file binds to an instance of the class itself, the first of ``owners`` (``collector =
    SnapshotCollector()``): (why, None), or None."""
    attr = name[5:] if name.startswith("self.") else ""
    if not attr or "." in attr:
        return None
    getters: Set[str] = set()
    for owner in owners:
        for stmt in statement_list(owner.body):
            a = getattr(stmt, "_a", None)
            if type(stmt) is nodes.FunctionDef and stmt is not ctx.scope_node and \
                    isinstance(a, ast.FunctionDef) and _reads_and_returns(a, attr):
                getters.add(a.name)
    tree = getattr(ctx.module, "_a", None)
    if not getters or tree is None:
        return None
    classes = {owners[0].name.value}  # (the class itself: a subclass may not keep it so)
    made = {t.id for n in ast.walk(tree) if type(n) is ast.Assign and type(n.value) is ast.Call
            and type(n.value.func) is ast.Name and n.value.func.id in classes
            for t in n.targets if type(t) is ast.Name}
    for n in ast.walk(tree):
        if type(n) is ast.Call and type(n.func) is ast.Attribute and \
                n.func.attr == "load_state_dict" and n.args:
            for c in ast.walk(n.args[0]):
                if type(c) is ast.Call and type(c.func) is ast.Attribute and not c.args and \
                        c.func.attr in getters and type(c.func.value) is ast.Name and \
                        c.func.value.id in made:
                    call = f"{c.func.value.id}.{c.func.attr}()"
                    return (f"later calls (`load_state_dict({call})`, line {n.lineno}, "
                            f"computed from `{name}`)"), None
    return None


def _reads_and_returns(fn: ast.FunctionDef, attr: str) -> bool:
    """Does ``fn`` read ``self.<attr>`` and return a value (one that may hold its items, read
    there or through a local computed from it: ``return out``)?"""
    reads = returns = False
    for n in ast.walk(fn):
        if type(n) is ast.Attribute and n.attr == attr and type(n.value) is ast.Name and \
                n.value.id == "self" and type(n.ctx) is ast.Load:
            reads = True
        elif type(n) is ast.Return and n.value is not None and (
                type(n.value) is not ast.Call or returns_items(n.value, "self." + attr)):
            returns = True
    return reads and returns


#: builtins whose value says something of a container and holds none of its items
_OF_CONTAINER = frozenset({"len", "bool", "int", "float", "str", "repr", "isinstance", "id"})


def returns_items(value: ast.expr, name: str, local: frozenset = frozenset()) -> bool:
    """Does the returned ``value`` read ``name`` (``self.heap``), or one of the ``local`` names
    bound from it, other than through a builtin that holds none of its items (``return
    len(self.states)``)?"""
    todo = [value]
    while todo:
        n = todo.pop()
        if type(n) is ast.Call and type(n.func) is ast.Name and n.func.id in _OF_CONTAINER:
            continue
        if type(n) is ast.Attribute and dotted(n) == name or \
                type(n) is ast.Name and n.id in local and type(n.ctx) is ast.Load:
            return True
        todo.extend(ast.iter_child_nodes(n))
    return False


def bound_from(fn: ast.AST, name: str) -> frozenset:
    """The names ``fn`` binds, each by one plain assignment, to a value that reads ``name``
    or another such name (``states = [s for _, _, s in self.heap]``): what it returns of them
    is read from ``name``, as ``returns_items`` counts it."""
    local: set = set()
    assigns = [n for n in ast.walk(fn) if type(n) is ast.Assign and len(n.targets) == 1 and
               type(n.targets[0]) is ast.Name]
    for _ in range(2):  # (a name bound from one bound from ``name``)
        for n in assigns:
            if returns_items(n.value, name, frozenset(local)):
                local.add(n.targets[0].id)
    counts = {}
    for n in assigns:
        counts[n.targets[0].id] = counts.get(n.targets[0].id, 0) + 1
    return frozenset(x for x in local if counts[x] == 1)
