"""TEN402 of an optimizer's own copy of its param groups' parameters that is the parameters
themselves: SAM's backup (``self.state[p]["old_p"] = p.data`` in ``for group in
self.param_groups: for p in group["params"]:``), written in place in the same turn
(``p.add_(e_w)``, the perturbation) and read by another method of the class (``p.data =
self.state[p]["old_p"]``, meant to undo it: it reads the perturbed tensor, ``group_backup``);
Lookahead's slow weights (``self.slow = [[p.data for p in g["params"]] for g in
self.param_groups]``), which another method pairs with the parameters it updates
(``slow.add_(p - slow)`` adds nothing, ``group_snapshot``). Split from ``rules/snapshot.py``."""
from __future__ import annotations

import ast
from typing import Optional, Tuple

from ..semantic.statedicts import same_storage
from ..semantic.storage_flow import first_write, sole_binding
from ..syntax import nodes
from ..syntax.nodes import dotted_name
from ..syntax.snapshot_shapes import snapshot_name
from ..syntax.walk import dotted, walk_nodes
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
    fn = _other_method(ctx, lambda n: type(n) is ast.Attribute and dotted(n) == name) \
        if write is not None else None
    return (f"`{ctx.snippet(write, 40)}` in the same turn", fn) if fn is not None else None


def _other_method(ctx, holds):
    """A method of the class of the method being checked, or of a class related to it (the same
    ``self``), other than that one, with a node ``holds`` answers yes for; read from its ``ast``
    (a body the pre-filter did not keep is not built). None where there is none."""
    cls = owner_class(ctx.module, ctx.scope_node)
    for owner in related_classes(ctx.module, cls) if cls is not None else ():
        for fn in statement_list(owner.body):
            if type(fn) is nodes.FunctionDef and fn is not ctx.scope_node and any(
                    holds(n) for n in walk_nodes(getattr(fn, "_a", None))):
                return fn
    return None


def _group_parameter(ctx, loop) -> Optional[str]:
    """``p`` of ``for p in group["params"]:`` (``loop``) inside ``for group in
    X.param_groups:``, else None."""
    if type(loop) is not nodes.For or type(loop.target) is not nodes.Name:
        return None
    outer = innermost_loop(ctx, loop)
    if type(outer) is not nodes.For or type(outer.target) is not nodes.Name or \
            not _param_groups(outer.iter) or not _group_params(loop.iter, {outer.target.value}):
        return None
    return loop.target.value


def group_snapshot(ctx, target, value) -> Optional[Tuple[str, object]]:
    """(the change, the method) where ``self.X`` (``target``) gets a list of the parameters of an
    optimizer's param groups themselves (Lookahead's slow weights: ``[[p.data for p in
    g["params"]] for g in self.param_groups]``, ``[p.detach() for p in group["params"]]``
    appended in ``for group in self.param_groups:``), and another method of the class (or of
    one related to it) pairs it with something in a ``zip`` (the live parameters it then
    updates from it: ``slow.add_(p - slow)`` reads the parameter twice); else None."""
    name = dotted_name(target)
    if type(target) is not nodes.Attribute or name is None or not name.startswith("self.") or \
            name.count(".") != 1 or type(value) is not nodes.ListComp:
        return None
    groups = set()  # the names a comprehension or an enclosing loop binds to a param group
    loop = innermost_loop(ctx, ctx.stmt_line)
    while type(loop) is nodes.For:
        if type(loop.target) is nodes.Name and _param_groups(loop.iter):
            groups.add(loop.target.value)
        loop = innermost_loop(ctx, loop)
    elt, fors = value, []
    while type(elt) is nodes.ListComp:  # ``[[p.data for p in g["params"]] for g in ...]``
        fors.append(elt.for_in)
        elt = elt.elt
    params = set()
    for f in fors:
        while f is not None:
            if type(f.target) is nodes.Name and _param_groups(f.iter):
                groups.add(f.target.value)
            elif type(f.target) is nodes.Name and (_group_params(f.iter, groups) or (
                    type(f.iter) is nodes.Name and _all_group_params(
                        sole_binding(ctx.scope_node, f.iter.value, ctx.stmt_line)))):
                params.add(f.target.value)  # (``for p in params`` of ``params = [p for g in
            f = f.inner_for_in  # base.param_groups for p in g["params"]]``, bound once)
    if not any(same_storage(elt, p) is not None for p in params) or (
            type(elt) is nodes.Name and not snapshot_name(name)):
        return None  # (a list of the parameters themselves is a handle unless named a copy:
        # ``self.params = [p for g in base.param_groups for p in g["params"]]``)
    fn = _other_method(ctx, lambda n: type(n) is ast.Call and type(n.func) is ast.Name and
                       n.func.id == "zip" and any(dotted(a) == name for a in n.args))
    return (f"each step of the optimizer (`{fn.name.value}()` pairs it with the parameters it "
            "updates)", fn) if fn is not None else None


def _all_group_params(value) -> bool:
    """``[p for g in X.param_groups for p in g["params"]]``: every parameter of the groups."""
    if type(value) is not nodes.ListComp or type(value.elt) is not nodes.Name:
        return False
    outer, inner = value.for_in, value.for_in.inner_for_in
    return inner is not None and inner.inner_for_in is None and not outer.ifs and \
        not inner.ifs and type(outer.target) is nodes.Name and _param_groups(outer.iter) and \
        type(inner.target) is nodes.Name and inner.target.value == value.elt.value and \
        _group_params(inner.iter, {outer.target.value})


def _param_groups(node) -> bool:
    """``X.param_groups``."""
    return type(node) is nodes.Attribute and node.attr.value == "param_groups"


def _group_params(node, groups) -> bool:
    """``g["params"]`` of a name ``groups`` holds."""
    return type(node) is nodes.Subscript and type(node.value) is nodes.Name and \
        node.value.value in groups and len(node.slice) == 1 and \
        type(node.slice[0].slice) is nodes.Index and \
        type(node.slice[0].slice.value) is nodes.SimpleString and \
        node.slice[0].slice.value.evaluated_value == "params"
