"""The pre-filter's shapes of TEN403 (``prefilter``): a write into a basic-slice view of a name
from a view of the same name (``x[:, 1:] = x[:, :-1]``, ``x[:, 1:].add_(x[:, :-1])``, through
``detach()`` or a conversion), or from a name bound to one (``v = x[...]``). A superset of what
``rules/overlap.py`` reads: the engine's walk decides."""
from __future__ import annotations

import ast
import re
from typing import Optional, Set

from .walk import dotted, helper_call, statements, walk_nodes


def slice_write(a: ast.expr) -> bool:
    """``x[..:..]``: a write into a basic-slice view (the only writes TEN403 reads)."""
    if not isinstance(a, ast.Subscript):
        return False
    sl = a.slice
    return isinstance(sl, ast.Slice) or (isinstance(sl, ast.Tuple) and any(
        isinstance(e, ast.Slice) for e in sl.elts))


#: in-place methods that write their receiver from what they read: ``copy_``, and those an
#: augmented assignment runs (``x[a] += v`` is ``x[a].add_(v)``, ``*=`` ``mul_``...), each from
#: its one argument; ``lerp_`` (its weight a second argument); ``addcmul_`` and ``addcdiv_``
#: from both their tensors. TEN403's writes, here and in ``rules/overlap.py``
WRITING = frozenset({"copy_", "add_", "sub_", "mul_", "div_", "lerp_", "addcmul_", "addcdiv_"})
#: per method of ``WRITING``: (how many of its first positional arguments it reads as tensors,
#: how many positional arguments it takes); one of each where not listed
WRITING_ARGS = {"lerp_": (1, 2), "addcmul_": (2, 2), "addcdiv_": (2, 2)}
#: methods through which TEN403 reads the same view (``through_detach`` in
#: rules/overlap_conversions.py decides which calls of them do)
SAME_VIEW = frozenset({"detach", "to", "type_as", "view_as", "view", "reshape", "contiguous",
                       "type", "float", "double", "half", "bfloat16", "long", "int", "short",
                       "bool", "byte", "char", "cfloat", "cdouble"})


def same_subscripted(a: ast.expr, b: ast.expr, named: Optional[Set] = None) -> bool:
    """``x[...]`` and ``x[...]`` of one name or attribute chain (TEN403's write and read); a
    tuple of them pairwise; ``x[..:..] = v`` of a name ``v`` is noted in ``named`` as (x, v),
    a shape once ``v = x[...]`` is bound too."""
    if isinstance(a, ast.Tuple) and isinstance(b, ast.Tuple) and len(a.elts) == len(b.elts):
        return any(same_subscripted(x, y, named) for x, y in zip(a.elts, b.elts))
    if _narrow(a):  # ``x.narrow(0, 0, n - 1).copy_(x.narrow(0, 1, n - 1))``
        if isinstance(b, ast.Name) and named is not None:
            named.add((dotted(a.func.value), b.id))  # ``.copy_(tail)``, ``tail = x.narrow(...)``
        return _narrow(b) and keyed(a.func.value) is not None and \
            keyed(a.func.value) == keyed(b.func.value)
    if not slice_write(a):
        return False
    while isinstance(b, ast.Call) and isinstance(b.func, ast.Attribute) and \
            b.func.attr in SAME_VIEW:
        b = b.func.value  # ``x[:, :-1].detach()``: the view read (rules/overlap.py)
    if isinstance(b, ast.Name) and named is not None:
        named.add((dotted(a.value), b.id))
    if not isinstance(b, ast.Subscript):
        return False
    if isinstance(a.value, ast.Name) and named is not None:
        named.add((dotted(b.value), a.value.id))  # ``v[:] = x[...]`` once ``v = x[...]``
    if isinstance(b.value, ast.Name) and named is not None:
        named.add((dotted(a.value), b.value.id))  # ``x[1:] = v[:-1]`` once ``v = x``
    read = b.value
    while isinstance(read, ast.Call) and isinstance(read.func, ast.Attribute) and \
            read.func.attr == "detach":
        read = read.func.value  # ``x.detach()[:, :-1]``
    return keyed(a.value) is not None and keyed(a.value) == keyed(read)


def narrowed_name(node: ast.expr) -> Optional[str]:
    """``x`` of ``x.narrow(dim, start, length)`` (``x`` a plain name), else None."""
    return node.func.value.id if _narrow(node) and isinstance(node.func.value, ast.Name) else None


def _narrow(node: ast.expr) -> bool:
    """``x.narrow(dim, start, length)``: a view like a slice (``regions.narrowed``)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
        node.func.attr == "narrow"


def keyed(node: ast.expr) -> Optional[str]:
    """``dotted``, or an item of a dotted name at a constant key (``self.cache["k"]``)."""
    d = dotted(node)
    if d is not None or not isinstance(node, ast.Subscript) or \
            not isinstance(node.slice, ast.Constant) or \
            type(node.slice.value) not in (str, int):
        return d
    inner = keyed(node.value)
    return f"{inner}[{node.slice.value!r}]" if inner is not None else None


def through_views(views: Set) -> Set:
    """(base, name) of each ``name = base[...]``, and of views of views (``w = v[...]``)."""
    out = set(views)
    for _ in range(4):
        out |= {(a, n) for a, b in out for b2, n in out if b == b2}
    return out


def binds_view(roots, named: Set) -> bool:
    """Do ``roots`` bind ``v = x[...]``, ``v = x.narrow(...)`` or ``v = x`` (or a view of a view
    of ``x``) for a write ``x[..:..] = v`` (or ``v.copy_(x[...])``) noted in ``named``, or views
    ``d`` and ``s`` of one ``x`` for a ``d.copy_(s)`` noted as ``(None, d, s)``?"""
    views = set()
    for root in roots:
        for n in walk_nodes(root):
            if type(n) is not ast.Assign:
                continue
            target, value = n.targets[0], n.value
            pairs = zip(target.elts, value.elts) if type(target) is ast.Tuple and \
                type(value) is ast.Tuple else ((target, value),)  # ``a, b = x[1:], x[:-1]``
            views.update((dotted(v.value) if type(v) is ast.Subscript else
                          v.id if type(v) is ast.Name else narrowed_name(v), t.id)
                         for t, v in pairs if type(t) is ast.Name and (
                             type(v) in (ast.Subscript, ast.Name) or narrowed_name(v)))
    return bool(views) and views_written(named, through_views(views))


def views_written(named: Set, seen: Set) -> bool:
    """Does a write noted in ``named`` meet the views ``seen`` (``through_views``): ``(x, v)``
    one of them, or ``(None, d, s)`` two views of one ``x``?"""
    if not named.isdisjoint(seen):
        return True
    return any(len(p) == 3 and (b, p[1]) in seen and (b, p[2]) in seen
               for p in named for b, _ in seen)


def helper_copies(fn: ast.AST, helpers, modules) -> bool:
    """May ``fn`` hand two views of one tensor to a project function that writes one from the
    other (``copy_into(ring[1:], ring[:-1])``, ``ops.copy_into(...)``: TEN403's
    ``semantic.index.copy_summaries``)? A call of a function of ``helpers`` by name, or of a
    module of ``modules``, with two positional arguments ``same_subscripted`` reads as a write
    and its read; a call made as a statement (as the rule reads it)."""
    for s in statements(fn):
        n = s.value if type(s) is ast.Expr else None
        if type(n) is not ast.Call or len(n.args) < 2 or not helper_call(n.func, helpers, modules):
            continue
        args = n.args
        if any(same_subscripted(a, b) for a in args for b in args if a is not b):
            return True
    return False


#: the second of two views side by side in a call (``f(x[1:], x[:-1])``): its name, starting
#: with a literal (``re`` scans for ``]`` first)
_SECOND_VIEW = re.compile(r"\],\s*([\w.]+)\[")


def hands_views(text: str) -> bool:
    """May ``text`` hand two views of one name to a call side by side (``helper_copies``)?
    The name before the ``]`` must be the one after (``ring[1:], ring[:-1]``)."""
    for m in _SECOND_VIEW.finditer(text):
        base = m.group(1)
        start = text.rfind(base + "[", max(0, m.start() - 200), m.start())
        if start >= 0 and "\n" not in text[start:m.start()] and \
                (start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "._")):
            return True
    return False
