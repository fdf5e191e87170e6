"""The pre-filter's shapes of TEN404-406 (``prefilter``): a name bound to a conversion, a NumPy
bridge, an expansion or a repetition of another value, and an in-place write into that name or
the value it came from, on the ``ast`` tree. A superset of what ``semantic/storage.py`` and
``semantic/storage_flow.py`` read: the engine's walk decides."""
from __future__ import annotations

import ast
from typing import FrozenSet, Iterable, Optional, Set, Tuple

from .source import LazyPattern, holds_words
from .walk import helper_call, statements, walk_nodes


#: what ``semantic/storage.py`` reads as a conversion (TEN404), a bridge (TEN405) or an expansion
_STORAGE_METHODS = frozenset({"cpu", "to", "float", "double", "half", "bfloat16", "long",
                              "int", "short", "bool", "byte", "char", "cfloat", "cdouble", "type",
                              "contiguous", "requires_grad_", "numpy", "expand", "broadcast_to"})
_STORAGE_FUNCS = frozenset({"from_numpy", "as_tensor", "asarray", "broadcast_to"})


Binding = Tuple[str, Optional[str]]


def storage_shape(target: ast.expr, value: ast.expr) -> Optional[Binding]:
    """``y = x.cpu()`` (a name bound to a conversion, a bridge or an expansion of another named
    value), ``l = [t] * n``, ``l = [t for _ in range(n)]``: a binding TEN404-406 may follow,
    as (the bound name, the name the value came from or None); else None. The rules report
    only after an in-place write into one of the two (``writes_into``)."""
    if not isinstance(target, ast.Name):
        return None
    bound = target.id
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
        return (bound, None) if any(
            isinstance(side, ast.List) and len(side.elts) == 1 and
            isinstance(side.elts[0], (ast.Name, ast.Attribute, ast.Call))
            for side in (value.left, value.right)) else None
    if isinstance(value, ast.ListComp):
        elt = value.elt
        return (bound, None) if isinstance(elt, ast.Name) and len(value.generators) == 1 and \
            not value.generators[0].ifs and \
            elt.id not in _target_names(value.generators[0].target) else None
    if not isinstance(value, ast.Call):
        return None
    func = value.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name in _STORAGE_FUNCS:
        return bound, _root(value.args[0]) if value.args else None
    if name not in _STORAGE_METHODS or not isinstance(func, ast.Attribute):
        return None
    if name == "requires_grad_" and not (len(value.args) == 1 and isinstance(
            value.args[0], ast.Constant) and value.args[0].value is False):
        return None  # only ``requires_grad_(False)`` is read as a conversion
    node = func.value
    while True:  # down the chain of sharing steps to what they start from
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value
        elif isinstance(node, ast.Attribute) and node.attr == "data":
            node = node.value
        elif isinstance(node, ast.Subscript) and name in ("expand", "broadcast_to"):
            node = node.value
        else:
            break
    if name in ("expand", "broadcast_to"):
        return bound, _root(node)
    if isinstance(node, ast.Name):
        # ``x = x.float()``: the source is gone
        return (bound, node.id) if node.id != bound else None
    while isinstance(node, ast.Attribute):
        node = node.value
    return (bound, node.id) if isinstance(node, ast.Name) else None


#: what the text of a function must hold where its storage summary can say a returned value
#: shares through the NumPy bridge (``semantic/index/storage_summaries``: ``torch.from_numpy(v)``
#: or ``v.numpy()`` in its own body): the word, then its pattern
BRIDGE_WORDS = (("from_numpy", None), ("numpy", LazyPattern(r"numpy\s*\(")))


def mentions_bridge(text: str) -> bool:
    """Does ``text`` hold one of ``BRIDGE_WORDS``?"""
    return holds_words(text, BRIDGE_WORDS)


#: what ``semantic/storage_flow.first_write`` reads as an in-place write besides a method whose
#: name ends in ``_`` (NumPy's in-place methods, ``np.copyto``, a gather into a list)
_OTHER_WRITES = frozenset({"fill", "sort", "put", "partition", "itemset", "resize", "copyto",
                           "all_gather"})


def writes_into(root: ast.AST, names: Iterable[Optional[str]]) -> bool:
    """Does ``root`` hold an in-place write whose receiver starts at one of ``names``
    (``x.add_(..)``, ``x[i] = v``, ``x += v``, ``l[0].mul_(..)``, ``nn.init.zeros_(x)``,
    ``f(.., out=x)``, ``np.copyto(a, ..)``, ``dist.all_gather(l, ..)``)? A superset of
    ``first_write``'s writes: any scope, any order."""
    wanted = {n for n in names if n is not None}
    if not wanted:
        return False
    for node in walk_nodes(root):
        t = type(node)
        if t is ast.Call:
            func = node.func
            last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if (len(last) > 1 and last.endswith("_") and not last.startswith("_")) or \
                    last in _OTHER_WRITES:
                if isinstance(func, ast.Attribute) and _root(func.value) in wanted:
                    return True
                if node.args and _root(node.args[0]) in wanted:
                    return True
            if any(k.arg == "out" and _root(k.value) in wanted for k in node.keywords):
                return True
        elif t is ast.AugAssign:
            if _root(node.target) in wanted:
                return True
        elif t is ast.Assign:
            for target in node.targets:
                for part in walk_nodes(target):
                    if type(part) is ast.Subscript and _root(part.value) in wanted:
                        return True
    return False


def helper_written(fn: ast.AST, helpers: FrozenSet[str],
                   modules: FrozenSet[str] = frozenset()) -> bool:
    """Does ``fn`` bind a name (or a tuple of names) to a call of one of ``helpers`` (``t =
    to_tensor(a)``, ``x, y = cast(x, y)``), or of a function of one of ``modules`` (``t =
    utils.to_tensor(a)``), and write one of those names in place (``writes_into``)? TEN405 then
    asks the called function's storage summary."""
    bound = set()
    for node in statements(fn):
        if type(node) is ast.Assign and type(node.value) is ast.Call and \
                helper_call(node.value.func, helpers, modules):
            for target in node.targets:
                if type(target) is ast.Name:
                    bound.add(target.id)
                elif type(target) is ast.Tuple:
                    bound.update(e.id for e in target.elts if type(e) is ast.Name)
    return bool(bound) and writes_into(fn, bound)


def _root(node: ast.AST) -> Optional[str]:
    """The name an attribute, subscript or call chain starts from (``a`` of ``a.b[0].c()``)."""
    while True:
        t = type(node)
        if t is ast.Attribute or t is ast.Subscript:
            node = node.value
        elif t is ast.Call:
            node = node.func
        elif t is ast.Starred:
            node = node.value
        else:
            return node.id if t is ast.Name else None


def _target_names(target: ast.expr) -> Set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}

