"""TEN501's keepers called by a name the module binds to something other than a ``def``
(``accumulate_graph.method_accumulation`` asks when the name is no function of the project):

- ``log_loss = functools.partial(record, store, "loss")``: the project function, with the
  arguments the partial gives it first (``partial_of``);
- ``push = lambda v: raw.append(v)``: a lambda appending a parameter to a name it does not
  bind (``lambda_keeps``);
- ``record_loss = make_recorder()``: a project factory returning a function it defines, which
  appends its parameter to a list the factory made (``factory_keeps``): each call of
  ``record_loss`` adds to that one list.

The name is bound once, at the module's top level, and nowhere in the scope that calls it."""
from __future__ import annotations

import ast
from typing import List, Optional, Tuple

from ..semantic.storage_flow import binds_itself, sole_binding
from ..syntax import nodes
from ..syntax.prefilter_proof import keeper_names
from .context import cached


def named(ctx, func: nodes.Name) -> bool:
    """May ``func`` be such a keeper: does the module's top level bind its name to one
    (``prefilter_proof.keeper_names``, the pre-filter's own reading, once per file)?"""
    return func.value in cached(ctx, "_accumulate_keeper_names", ctx.module,
                                lambda: keeper_names(getattr(ctx.module, "_a", None)))


def _module_value(ctx, func: nodes.Name):
    """The value of the one top-level ``name = value`` of the module, where the scope being
    checked binds no ``name`` of its own; else None."""
    scope = ctx.scope_node
    if scope is not ctx.module and binds_itself(scope, func.value):
        return None
    return sole_binding(ctx.module, func.value, None)


def partial_of(ctx, func: nodes.Name) -> Optional[Tuple[nodes.BaseExpression, list]]:
    """``name = functools.partial(f, a, b)``: (``f``, the positional arguments it gives first),
    where it gives no keyword and no ``*``; else None."""
    value = _module_value(ctx, func)
    if type(value) is not nodes.Call or not value.args or \
            ctx.inf.qualname(value.func) != "functools.partial" or \
            any(a.keyword is not None or a.star for a in value.args):
        return None
    return value.args[0].value, list(value.args[1:])


def lambda_keeps(ctx, call: nodes.Call) -> list:
    """``push(loss)`` where ``push = lambda v: raw.append(v)``: [(``raw``, the argument,
    (``push``, None))], or []."""
    func = call.func
    value = _module_value(ctx, func)
    if type(value) is not nodes.Lambda:
        return []
    a = value._a if isinstance(getattr(value, "_a", None), ast.Lambda) else None
    body = value.body
    if a is None or type(body) is not nodes.Call or type(body.func) is not nodes.Attribute or \
            body.func.attr.value != "append" or type(body.func.value) is not nodes.Name or \
            len(body.args) != 1 or type(body.args[0].value) is not nodes.Name:
        return []
    names = [p.arg for p in a.args.posonlyargs + a.args.args]
    into, kept = body.func.value.value, body.args[0].value.value
    if into in names or kept not in names or a.args.vararg or a.args.kwarg:
        return []
    k = names.index(kept)
    args = [x for x in call.args if x.keyword is None and not x.star]
    if len(args) != len(call.args) or k >= len(args):
        return []
    return [(body.func.value, args[k].value, (func.value, None))]


def factory_keeps(ctx, call: nodes.Call, callee) -> list:
    """``record_loss(loss)`` where ``record_loss = make_recorder()`` and the project function
    ``make_recorder`` (``callee`` finds it) returns a function it defines that appends a
    parameter to a list the factory binds (``values = []``): [(the called name, the argument,
    (its name, None))], or []."""
    func = call.func
    value = _module_value(ctx, func)
    if type(value) is not nodes.Call or type(value.func) is not nodes.Name:
        return []
    fn = callee(ctx, value.func)
    node = getattr(fn, "node", None)
    if not isinstance(node, ast.FunctionDef):
        return []
    positions = _appended_positions(node)
    args = [x for x in call.args if x.keyword is None and not x.star]
    if len(args) != len(call.args):
        return []
    return [(func, args[k].value, (func.value, None)) for k in positions if k < len(args)]


def _appended_positions(factory: ast.FunctionDef) -> List[int]:
    """Positions of the parameters of the function ``factory`` returns (a ``def`` of its own
    body, returned by name and by every ``return`` of it) that it appends to a list the factory
    binds to a display (``values = []``) and the inner function does not bind."""
    inner = {s.name: s for s in factory.body if type(s) is ast.FunctionDef}
    returns = _own_returns(factory)
    if not inner or not returns or not all(
            type(r.value) is ast.Name and r.value.id in inner for r in returns) or \
            len({r.value.id for r in returns}) != 1:  # type: ignore[union-attr]
        return []
    fn = inner[returns[0].value.id]  # type: ignore[union-attr]
    lists = {t.id for s in factory.body if type(s) is ast.Assign and len(s.targets) == 1
             and type(s.value) is ast.List and not s.value.elts
             for t in s.targets if type(t) is ast.Name}
    names = [p.arg for p in fn.args.posonlyargs + fn.args.args]
    bound = {n.id for n in ast.walk(fn) if type(n) is ast.Name and type(n.ctx) is ast.Store} | \
        {n for s in ast.walk(fn) if type(s) in (ast.Nonlocal, ast.Global) for n in s.names}
    out = []
    for s in ast.walk(fn):
        if type(s) is ast.Expr and type(s.value) is ast.Call and \
                type(s.value.func) is ast.Attribute and s.value.func.attr == "append" and \
                type(s.value.func.value) is ast.Name and len(s.value.args) == 1 and \
                not s.value.keywords and type(s.value.args[0]) is ast.Name:
            into, kept = s.value.func.value.id, s.value.args[0].id
            if into in lists and into not in bound and into not in names and kept in names \
                    and kept not in bound and names.index(kept) not in out:
                out.append(names.index(kept))
    return sorted(out)


def _own_returns(fn: ast.FunctionDef) -> list:
    """The ``return`` statements of ``fn`` itself, not of the functions it defines."""
    out, todo = [], list(fn.body)
    while todo:
        n = todo.pop()
        if type(n) is ast.Return:
            out.append(n)
        elif type(n) not in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda):
            todo.extend(ast.iter_child_nodes(n))
    return out
