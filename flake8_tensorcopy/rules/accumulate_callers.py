"""TEN501: a top-level function whose callers keep what it appends, a step at a time: to the
list a loop of another function hands it on every turn (``kept_by_callers``; or to a list the
instance it is handed keeps for good), or to a list of its module that nothing empties
(``looped_by_callers``), where grad is on at the call; what a function a loop calls each step
adds to what outlives the call (``called_per_step``); and the no-backward shape's proof of grad
mode on (``script_grad_on``, ``called_grad_on``, moved from ``accumulate``). Split from
``accumulate_graph``."""
from __future__ import annotations

import ast
from typing import Optional

from ..semantic.graph_terms import walked_by, zipped_with
from ..syntax import nodes
from ..syntax.nodes import dotted_name
from ..syntax.parameter_shapes import walks_parameters
from ..syntax.grad_callers import Uses, always_handed, at_script_level, called_with_grad_on, \
    emptied_anywhere, frozen_targets, grad_off_in, instance_handing_calls, list_handing_calls, \
    looped_calls
from .accumulate_graph import caller_proves, freezes_here, grad_off_here, \
    method_called_with_grad_on, method_proves
from .accumulate_loops import LoopFacts, called_in_loop
from .context import cached, positional_param_names


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


def called_per_step(ctx) -> Optional[int]:
    """A plain top-level function, or a plain method of a top-level class, that a loop of the
    file calls by its name (``update_ema(student, teacher)``, ``ema.update(model)`` once per
    training step), where every use of the name in the module is such a call made with grad
    on: at script level outside any ``with``, or in a top-level function or method whose own
    differentiation proves the call's region on (``method_proves``, which asks a method's own
    callers in turn), and nothing in the file turns grad off by a call. The line of a looped
    call, else None: what each call adds to something that outlives it (the parameters of
    another module, an attribute of ``self``) grows a graph, call by call."""
    scope, project = ctx.scope_node, ctx.inf.project
    fn = getattr(scope, "_a", None)
    if type(fn) is not ast.FunctionDef or fn.decorator_list or project is None or \
            ctx.inf.in_no_grad:
        return None
    method = positional_param_names(scope)[:1] == ["self"]
    tree = project.module_tree()
    if tree is None or not called_in_loop(ctx, scope, method) or grad_off_in(
            ctx.source, tree, inference=False) and frozen_targets(tree) is None:
        return None  # (a grad mode set by a call: ``frozen_targets`` has no answer)
    return cached(ctx, "_accumulate_per_step", fn, lambda: _per_step(ctx, tree, fn, method))


def _per_step(ctx, tree: ast.Module, fn: ast.FunctionDef, method: bool) -> Optional[int]:
    owners = [(None, s) for s in tree.body if type(s) is not ast.ClassDef] + [
        (m if type(m) is ast.FunctionDef else None, m) for c in tree.body
        if type(c) is ast.ClassDef for m in c.body]
    looped = None
    for owner, part in owners:
        if type(part) is ast.FunctionDef and owner is None:
            owner = part  # (a top-level function)
        calls = {id(n.func): n for n in ast.walk(part) if type(n) is ast.Call}
        in_loops = {id(n) for loop in ast.walk(part) if type(loop) in (ast.For, ast.While)
                    for b in loop.body for n in ast.walk(b)}
        for n in ast.walk(part):
            if not (type(n) is ast.Name and n.id == fn.name or
                    type(n) is ast.Attribute and n.attr == fn.name):
                continue
            call = calls.get(id(n))
            if call is None or (type(n) is ast.Attribute) != method:
                return None  # (handed on, or another thing of the same name)
            if owner is None:
                if not at_script_level(tree.body, call):
                    return None
            elif owner is fn or not method_proves(ctx, owner, n, lambda: False, tree):
                return None
            if looped is None and id(call) in in_loops:
                looped = call.lineno
    return looped


def persists(ctx, acc, form, loop) -> bool:
    """Does the accumulator ``acc`` of an accumulation of ``form`` in ``loop``, a walk over a
    module's parameters, outlive a call of the function: an attribute of ``self`` or an item of
    one, or (written in place) the loop's own variable over a module's parameters (``ema_p`` of
    ``for ema_p, p in zip(ema.parameters(), model.parameters())``) or over a list the function
    is handed, the same one on every call (``zip(shadow, model.parameters())``, ``shadow`` its
    parameter: ``grad_callers.always_handed``)?"""
    if form not in ("aug", "add", "append"):
        return False
    root = dotted_name(acc.value if type(acc) is nodes.Subscript else acc) or ""
    if root.startswith("self."):
        return True
    if form != "aug" or type(acc) is not nodes.Name:
        return False
    a = getattr(loop, "_a", None)
    if walked_by(a, acc.value) is not None:
        return True
    handed = _zipped_name(a, acc.value)
    fn, project = getattr(ctx.scope_node, "_a", None), ctx.inf.project
    tree = project.module_tree() if handed is not None and project is not None and \
        type(fn) is ast.FunctionDef and any(s is ctx.scope_node for s in ctx.module.body) \
        else None
    return tree is not None and always_handed(tree, fn, handed)


def _zipped_name(loop, key: str) -> Optional[str]:
    """``shadow`` of ``for key, p in zip(shadow, ...)``: the plain name zipped to the loop's
    variable ``key``, or None."""
    paired = zipped_with(loop, key)
    return paired[1].id if paired is not None and type(paired[1]) is ast.Name else None


def per_parameter(acc, loop) -> bool:
    """Is ``loop`` a walk over a module's parameters (``parameter_shapes.walks_parameters``)
    whose body adds into each one's own accumulator: its own variable (``ema_p`` of
    ``ema_p.mul_(d).add_(p)``) or an item keyed by one (``self.shadow[n] = d * self.shadow[n] +
    (1 - d) * p``)? That accumulates once per turn of the loop around it, or once per call of
    the function holding it."""
    a = getattr(loop, "_a", None)
    if type(loop) is not nodes.For or not walks_parameters(a):
        return False
    if type(acc) is nodes.Subscript and len(acc.slice) == 1 and \
            type(acc.slice[0].slice) is nodes.Index:
        acc = acc.slice[0].slice.value
    return type(acc) is nodes.Name and any(
        type(n) is ast.Name and n.id == acc.value for n in ast.walk(a.target))


# ---- the no-backward shape: grad mode provably on, a value computed by a model -----------------
def script_grad_on(ctx, facts: LoopFacts) -> bool:
    """Script-level code (module scope) where nothing in the file freezes a parameter or sets
    grad mode by a call (``freezes_here``), outside any ``no_grad`` or ``inference_mode`` block
    (regions the walk reads where they are), and a loop body without ``backward``."""
    if type(ctx.scope_node) is not nodes.Module or ctx.inf.in_no_grad or freezes_here(ctx):
        return False
    return not facts.any_backward


def plain_top(ctx) -> bool:
    """Is the current scope a top-level function without decorators, not ``async``?"""
    scope = ctx.scope_node
    return type(scope) is nodes.FunctionDef and not scope.asynchronous and \
        not scope.decorators and any(s is scope for s in ctx.module.body)


def called_grad_on(ctx, facts: LoopFacts, escapes) -> bool:
    """A plain top-level function, outside any ``no_grad`` block of its own, with a loop body
    without ``backward``, in a file where nothing turns grad off or freezes a parameter, whose
    every caller in the project is visible and runs it with grad on: each use of its name in
    the file is a call at script level, from a function proven so in turn
    (``syntax/grad_callers.called_with_grad_on``, which the pre-filter asks too) or from one
    whose own differentiation proves grad on at the call (``caller_proves``; ``escapes()``:
    the function returns what it accumulates); or a plain method called only as
    ``self.m(...)`` from methods of its class proven so. That no other file of the project
    may import the file is asked last, by ``check``, once it would be reported."""
    if ctx.inf.in_no_grad or facts.any_backward:
        return False
    project = ctx.inf.project
    tree = project.module_tree() if project is not None else None
    fn = ctx.scope_node._a
    if tree is None or not isinstance(fn, ast.AST):
        return False
    if not plain_top(ctx):  # (``accumulate_graph.method_called_with_grad_on``)
        return type(ctx.scope_node) is nodes.FunctionDef and not grad_off_here(ctx) and \
            method_called_with_grad_on(ctx, tree, fn, escapes)
    return called_with_grad_on(fn, True, ctx.source, lambda: cached(
        ctx, "_accumulate_callers", tree, lambda: Uses(tree, ctx.source)), grad_off_here(ctx),
        proven=lambda owner, use: caller_proves(ctx, tree, owner, use, escapes))

