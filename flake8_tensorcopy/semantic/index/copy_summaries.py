"""What a project function writes into one of its arguments from another, in place, on every
call (TEN403's helpers: ``def copy_into(dst, src): dst.copy_(src)`` makes
``copy_into(ring[1:], ring[:-1])`` the overlapping write ``ring[1:].copy_(ring[:-1])``), read from
its own code once and kept with its module's facts (``statedict_summaries.kept_per_function``).

A pair is kept only where the body's own top-level statements (no branch, no loop: every call
runs it) write a parameter from another one as handed (``dst.copy_(src)``, ``dst[...] =
src``, ``dst[:] = src[:]`` of whole views), neither bound anywhere in the function, and nothing
before the write returns."""
from __future__ import annotations

import ast
import weakref
from typing import FrozenSet, Tuple

from ...syntax.walk import own_nodes
from .statedict_summaries import kept_per_function

#: module facts -> {id(function facts): (function facts, pairs)}
_PAIRS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_NONE: FrozenSet[Tuple[int, int]] = frozenset()


def writes_from(fn) -> FrozenSet[Tuple[int, int]]:
    """(call position written, call position read) of project function ``fn`` (a
    ``FuncFacts``; a method's ``self`` is no call position), each pair it writes in place on
    every call."""
    if getattr(fn, "cls", None) is not None:
        return _NONE  # (a method: its receiver's class decides which body runs)
    return kept_per_function(fn, _PAIRS, _pairs, _NONE)


def _pairs(fn: ast.AST) -> FrozenSet[Tuple[int, int]]:
    args = getattr(fn, "args", None)
    if args is None or args.vararg is not None or getattr(fn, "decorator_list", None):
        return _NONE
    params = [a.arg for a in args.posonlyargs + args.args]
    bound = {n.id for n in own_nodes(fn) if type(n) is ast.Name and
             type(n.ctx) is not ast.Load} | {a.arg for a in args.kwonlyargs}
    out = set()
    for stmt in fn.body:
        if type(stmt) in (ast.Return, ast.Raise):
            break
        pair = _written(stmt)
        if pair is None:
            continue
        dst, src = pair
        if dst in params and src in params and dst != src and not {dst, src} & bound:
            out.add((params.index(dst), params.index(src)))
    return frozenset(out)


def _written(stmt: ast.stmt):
    """(the name written, the name read) of ``dst.copy_(src)`` or ``dst[...] = src`` (a whole
    view of each: ``dst[:] = src[:]``), else None."""
    if type(stmt) is ast.Expr and type(stmt.value) is ast.Call:
        call = stmt.value
        f = call.func
        if type(f) is ast.Attribute and f.attr == "copy_" and type(f.value) is ast.Name and \
                len(call.args) == 1 and type(call.args[0]) is ast.Name and not call.keywords:
            return f.value.id, call.args[0].id
        return None
    if type(stmt) is ast.Assign and len(stmt.targets) == 1:
        t, v = stmt.targets[0], stmt.value
        if type(t) is ast.Subscript and _whole(t.slice) and type(t.value) is ast.Name:
            if type(v) is ast.Subscript and _whole(v.slice):
                v = v.value
            if type(v) is ast.Name:
                return t.value.id, v.id
    return None


def _whole(sl: ast.expr) -> bool:
    """``[:]``, ``[...]``: the whole of what is indexed."""
    return (type(sl) is ast.Slice and sl.lower is None and sl.upper is None and
            sl.step is None) or (type(sl) is ast.Constant and sl.value is Ellipsis)
