"""A cheap, conservative pre-filter on the ``ast`` tree: can any rule fire in this file?

libcst parsing costs about ten times ``ast.parse``; flake8 hands the plugin its ``ast`` tree for
free. This scan looks only for node *shapes* a rule needs (``X.data``, ``tensor(<non-literal>)``,
``.clone(...).detach()``, ``*_like(t).copy_(t)``, ``y = x.detach()``...). It must never say "no"
where a rule could fire: it is a superset, the libcst pass decides.
"""
from __future__ import annotations

import ast

_LITERALS = (ast.Constant, ast.Dict, ast.Set, ast.DictComp, ast.SetComp, ast.JoinedStr,
             ast.Lambda)
_CTOR_ATTRS = frozenset({"tensor", "new_tensor"})
_LIKE = frozenset({"empty_like", "zeros_like", "ones_like"})


def _legacy_name(name: str) -> bool:
    return name == "Tensor" or (name.endswith("Tensor") and name[:-6].isalpha()
                                and name[:1].isupper())


def _is_torch_path(node: ast.expr) -> bool:
    """``torch.utils`` and other dotted module paths rooted at torch."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id == "torch"


def has_candidates(tree: ast.AST) -> bool:
    aliases = set()  # names imported from torch (``from torch import tensor as T``)
    named_calls = set()
    for node in ast.walk(tree):
        t = type(node)
        if t is ast.Attribute:
            if node.attr == "data":
                value = node.value
                if isinstance(value, ast.Name) and value.id == "self":
                    continue
                if isinstance(value, ast.Attribute) and _is_torch_path(value):
                    continue
                return True
        elif t is ast.Call:
            func = node.func
            args = node.args
            first = args[0] if args else next(
                (k.value for k in node.keywords if k.arg == "data"), None)
            if isinstance(func, ast.Attribute):
                attr = func.attr
                if attr == "detach" and isinstance(func.value, ast.Call):
                    inner = func.value.func
                    if isinstance(inner, ast.Attribute) and inner.attr == "clone":
                        return True
                elif attr == "copy_" and isinstance(func.value, ast.Call):
                    inner = func.value.func
                    name = inner.attr if isinstance(inner, ast.Attribute) else getattr(inner, "id", "")
                    if name in _LIKE:
                        return True
                elif (attr in _CTOR_ATTRS or _legacy_name(attr)) and first is not None \
                        and not isinstance(first, _LITERALS):
                    if isinstance(first, (ast.List, ast.Tuple)) and all(
                            isinstance(e, ast.Constant) for e in first.elts):
                        continue
                    return True
                elif attr in _LIKE or attr == "clone":
                    pass
            elif isinstance(func, ast.Name) and first is not None \
                    and not isinstance(first, _LITERALS):
                named_calls.add(func.id)
        elif t is ast.Assign or t is ast.AnnAssign or t is ast.NamedExpr:
            value = node.value
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    and value.func.attr == "detach" and not value.args:
                return True
        elif t is ast.ImportFrom:
            if node.module and (node.module == "torch" or node.module.startswith("torch.")):
                for alias in node.names:
                    if alias.name in _CTOR_ATTRS or _legacy_name(alias.name) or alias.name == "*":
                        aliases.add(alias.asname or alias.name)
    return bool(aliases & named_calls) or "*" in aliases
