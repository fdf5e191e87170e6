"""What a call that trains trains (TEN402's change points, ``snapshot_flow.change_point``): a
deep copy of the snapshot's module (``local_train(copy.deepcopy(model))``), or another module
the class makes apart from it (``local_train(self.local_model, ...)`` where ``self.local_model =
model_fn()``): not the module whose state dict was kept."""
from __future__ import annotations

import ast

from ..syntax import nodes
from ..syntax.nodes import dotted_name
from ..syntax.walk import class_of, dotted, self_bindings
from .context import cached

_DEFS = (nodes.FunctionDef, nodes.ClassDef)


def trains_a_copy(ctx, call, receiver: str) -> bool:
    """Is ``call`` handed a deep copy (``local_train(local, loader)`` for ``local =
    copy.deepcopy(model)``, or ``finetune(copy.deepcopy(model))``), or another module the class
    makes apart from ``receiver`` (``_made_apart``), and nothing of ``receiver``? What it
    trains is then that one (FedAvg, task vectors), not the snapshot's module."""
    copied = False
    copies = None
    for a in call.args:
        v = a.value
        name = dotted_name(v)
        if name is not None and (name == receiver or name.startswith(receiver + ".")):
            return False
        if type(v) is nodes.Attribute and name is not None and name.startswith("self.") and \
                receiver.startswith("self.") and name.count(".") == 1:
            copied = copied or name in cached(ctx, "_apart_modules " + receiver, ctx.scope_node,
                                              lambda: _made_apart(ctx, receiver))
        elif type(v) is nodes.Name:
            if copies is None:
                copies = cached(ctx, "_deep_copies", ctx.scope_node,
                                lambda: _deep_copies(ctx.scope_node))
            copied = copied or v.value in copies
        else:
            copied = copied or _deep_copy_call(v)
    return copied


def _deep_copy_call(v) -> bool:
    return type(v) is nodes.Call and (dotted_name(v.func) or "") in ("copy.deepcopy", "deepcopy")


def _deep_copies(scope) -> frozenset:
    """The names the scope binds only to ``copy.deepcopy(...)`` (one walk a scope)."""
    copies, other = set(), set()
    todo = [scope]
    while todo:
        n = todo.pop()
        if n is not scope and type(n) in _DEFS:
            continue
        if type(n) is nodes.Assign:
            for t in n.targets:
                if type(t.target) is nodes.Name:
                    (copies if _deep_copy_call(n.value) else other).add(t.target.value)
        todo.extend(c for c in n.children if c is not None)
    return frozenset(copies - other)


def _made_apart(ctx, receiver: str) -> frozenset:
    """The attributes ``self.X`` (dotted) that every method of the class of the scope binds
    only to a call that does not read ``receiver`` (``self.local_model = model_fn().to(d)``
    beside ``self.global_model = model_fn().to(d)``), or to its deep copy: another module than
    ``receiver``'s, whatever is done to it. (The ``ast`` of the linted file's class.)"""
    cls = class_of(getattr(ctx.module, "_a", None), getattr(ctx.scope_node, "_a", None))
    if cls is None:
        return frozenset()
    root = receiver.split(".")[1]

    def apart(v) -> bool:
        return type(v) is ast.Call and (
            dotted(v.func) in ("copy.deepcopy", "deepcopy") or not any(
                type(a) is ast.Attribute and a.attr == root and type(a.value) is ast.Name
                for a in ast.walk(v)))
    return frozenset("self." + attr for attr, values in self_bindings(cls).items()
                     if all(apart(v) for v in values)) - {receiver}
