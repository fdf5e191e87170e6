"""TEN501: a top-level function whose callers keep what it appends, a step at a time: to the
list a loop of another function hands it on every turn (``kept_by_callers``; or to a list the
instance it is handed keeps for good), or to a list of its module that nothing empties
(``looped_by_callers``), where grad is on at the call. Split from ``accumulate_graph``."""
from __future__ import annotations

import ast
from typing import Optional

from ..syntax import nodes
from ..syntax.grad_callers import emptied_anywhere, instance_handing_calls, list_handing_calls, \
    looped_calls
from .accumulate_graph import caller_proves


def looped_by_callers(ctx, name: str) -> Optional[int]:
    """``entropy_trace.append(v)`` in a plain top-level function, ``entropy_trace`` (``name``) a
    list the module makes (``accumulate_loops.module_container``) that nothing in the file
    empties: the line of a call of the function in a loop of another top-level function of the
    file where grad is on at the call (``caller_proves``); every turn's value stays in the
    module's list. None otherwise."""
    scope, project = ctx.scope_node, ctx.inf.project
    fn = getattr(scope, "_a", None)
    if type(fn) is not ast.FunctionDef or fn.decorator_list or project is None or \
            not any(s is scope for s in ctx.module.body):
        return None
    tree = project.module_tree()
    if tree is None or emptied_anywhere(tree, name):
        return None
    for owner, _, call in looped_calls(tree, fn):
        if caller_proves(ctx, tree, owner.name, call.func, lambda: False):
            return call.lineno
    return None


def kept_by_callers(ctx, acc) -> Optional[int]:
    """``sink.append(v)`` in a plain top-level function, ``sink`` (``acc``) its positional
    parameter, never bound in it: the line of a call of the function in a loop of another
    top-level function of the file that hands it the same list each turn
    (``grad_callers.list_handing_calls``), where grad is on at the call (``caller_proves``: the
    caller's own differentiation shows it): every turn's value stays in the caller's list.
    Also ``policy.saved.append(v)``, a list the instance handed each turn keeps for good
    (``grad_callers.instance_handing_calls``). None otherwise."""
    scope, project = ctx.scope_node, ctx.inf.project
    fn = getattr(scope, "_a", None)
    handed = type(acc) is nodes.Attribute and type(acc.value) is nodes.Name
    if (type(acc) is not nodes.Name and not handed) or type(fn) is not ast.FunctionDef or \
            fn.decorator_list or project is None or not any(s is scope for s in ctx.module.body):
        return None
    tree = project.module_tree()
    calls = () if tree is None else instance_handing_calls(
        tree, fn, acc.value.value, acc.attr.value) if handed else \
        list_handing_calls(tree, fn, acc.value)
    for owner, call in calls:
        if caller_proves(ctx, tree, owner.name, call.func, lambda: False):
            return call.lineno
    return None
