"""TEN402 of an optimizer's own state: a backup of each parameter of its param groups kept as the
parameter itself (SAM's ``self.state[p]["old_p"] = p.data`` in ``for group in
self.param_groups: for p in group["params"]:``), written in place in the same turn (``p.add_(e_w)``,
the perturbation) and read by another method of the class (``p.data =
self.state[p]["old_p"]``, meant to undo it): what it reads is the perturbed tensor, so the
perturbation is never undone. Split from ``rules/snapshot.py``."""
from __future__ import annotations

from typing import Optional, Tuple

from ..semantic.statedicts import same_storage
from ..semantic.storage_flow import first_write
from ..syntax import nodes
from ..syntax.nodes import dotted_name
from .accumulate_loops import innermost_loop
from .context import statement_list
from .snapshot_methods import owner_class, related_classes


def group_backup(ctx, target, value) -> Optional[Tuple[str, object]]:
    """(the change, the method reading it) where ``target = value`` keeps the parameter a loop
    over an optimizer's param group binds (``value``: it or a tensor sharing its storage) in an
    item of a ``self`` attribute, the same turn then writes the parameter in place, and another
    method of the class (or of one related to it) reads that attribute; else None."""
    root = target
    while type(root) is nodes.Subscript:
        root = root.value
    name = dotted_name(root)
    if name is None or not name.startswith("self.") or name.count(".") != 1:
        return None
    loop = innermost_loop(ctx, ctx.stmt_line)
    param = _group_parameter(ctx, loop)
    if param is None or same_storage(value, param) is None:
        return None
    write = first_write(loop.body, ctx.stmt_line, frozenset({param, param + ".data"}))
    cls = owner_class(ctx.module, ctx.scope_node) if write is not None else None
    if cls is None:
        return None
    for owner in related_classes(ctx.module, cls):
        for fn in statement_list(owner.body):
            if type(fn) is nodes.FunctionDef and fn is not ctx.scope_node and any(
                    type(n) is nodes.Attribute and dotted_name(n) == name
                    for n in nodes.within(fn.body)):
                return f"`{ctx.snippet(write, 40)}` in the same turn", fn
    return None


def _group_parameter(ctx, loop) -> Optional[str]:
    """``p`` of ``for p in group["params"]:`` (``loop``) inside ``for group in
    X.param_groups:``, else None."""
    if type(loop) is not nodes.For or type(loop.target) is not nodes.Name:
        return None
    it = loop.iter
    if type(it) is not nodes.Subscript or type(it.value) is not nodes.Name or \
            len(it.slice) != 1 or type(it.slice[0].slice) is not nodes.Index or \
            type(it.slice[0].slice.value) is not nodes.SimpleString or \
            it.slice[0].slice.value.evaluated_value != "params":
        return None
    outer = innermost_loop(ctx, loop)
    if type(outer) is not nodes.For or type(outer.target) is not nodes.Name or \
            outer.target.value != it.value.value or type(outer.iter) is not nodes.Attribute or \
            outer.iter.attr.value != "param_groups":
        return None
    return loop.target.value
