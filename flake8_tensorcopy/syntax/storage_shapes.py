"""The pre-filter's shapes of TEN404-406 (``prefilter``): a name bound to a conversion, a NumPy
bridge, an expansion or a repetition of another value, on the ``ast`` tree. A superset of what
``semantic/storage.py`` reads: the engine's walk decides."""
from __future__ import annotations

import ast
from typing import Set


#: what ``semantic/storage.py`` reads as a conversion (TEN404), a bridge (TEN405) or an expansion
_STORAGE_METHODS = frozenset({"cpu", "to", "float", "double", "half", "bfloat16", "long",
                              "int", "short", "bool", "byte", "char", "cfloat", "cdouble", "type",
                              "contiguous", "requires_grad_", "numpy", "expand", "broadcast_to"})
_STORAGE_FUNCS = frozenset({"from_numpy", "as_tensor", "asarray", "broadcast_to"})


def storage_shape(target: ast.expr, value: ast.expr) -> bool:
    """``y = x.cpu()`` (a name bound to a conversion, a bridge or an expansion of another named
    value), ``l = [t] * n``, ``l = [t for _ in range(n)]``: a binding TEN404-406 may follow."""
    if not isinstance(target, ast.Name):
        return False
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
        return any(isinstance(side, ast.List) and len(side.elts) == 1 and
                   isinstance(side.elts[0], (ast.Name, ast.Attribute, ast.Call))
                   for side in (value.left, value.right))
    if isinstance(value, ast.ListComp):
        elt = value.elt
        return isinstance(elt, ast.Name) and len(value.generators) == 1 and \
            not value.generators[0].ifs and elt.id not in _target_names(value.generators[0].target)
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name in _STORAGE_FUNCS:
        return True
    if name not in _STORAGE_METHODS or not isinstance(func, ast.Attribute):
        return False
    if name == "requires_grad_" and not (len(value.args) == 1 and isinstance(
            value.args[0], ast.Constant) and value.args[0].value is False):
        return False  # only ``requires_grad_(False)`` is read as a conversion
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
        return True
    if isinstance(node, ast.Name):
        return node.id != target.id  # ``x = x.float()``: the source is gone
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _target_names(target: ast.expr) -> Set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}

