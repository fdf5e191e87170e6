"""The shape of an update made from a module's parameters, one parameter per turn of a loop
(``for ema_p, p in zip(ema.parameters(), model.parameters()): ema_p.mul_(d).add_(p)``,
``self.shadow[n] = d * self.shadow[n] + (1 - d) * p``): what TEN501 reads as an accumulation
once per call of the function holding it, and what the pre-filter keeps a definition for. The
syntax of an ``ast`` tree, no facts."""
from __future__ import annotations

import ast

from .walk import dotted, statements

_WALKS = ("parameters", "named_parameters")
_IN_PLACE = ("add_", "lerp_")


def walks_parameters(loop) -> bool:
    """Is ``loop`` (an ``ast`` loop) a walk over a module's parameters, one per turn (``for p in
    model.parameters()``, ``for n, p in model.named_parameters()``, ``for e, p in
    zip(ema.parameters(), model.parameters())``)?"""
    it = loop.iter if type(loop) in (ast.For, ast.AsyncFor) else None
    if type(it) is ast.Call and type(it.func) is ast.Name and it.func.id == "zip":
        return any(parameters_call(a) for a in it.args)
    return parameters_call(it)


def parameters_call(it) -> bool:
    """Is ``it`` ``X.parameters()`` or ``X.named_parameters()`` of a name or an attribute, with
    no arguments?"""
    return type(it) is ast.Call and type(it.func) is ast.Attribute and not it.args and \
        not it.keywords and it.func.attr in _WALKS and \
        type(it.func.value) in (ast.Name, ast.Attribute)


def updates_from_parameters(fn: ast.AST) -> bool:
    """Does a loop of ``fn`` over a module's parameters add in place into its own variable
    (``e.add_(...)``, ``e.mul_(d).add_(...)``, ``e.lerp_(...)``, ``e += ...``) or into an item
    or attribute of ``self`` (``self.shadow[n] = ... + ...``, ``self.shadow[n] += ...``)? (TEN501's per-call
    accumulation, ``rules/accumulate_callers.persists``: a superset of what it reports.)"""
    for loop in statements(fn):  # (statements only: a loop is one)
        if type(loop) is not ast.For or not walks_parameters(loop):
            continue
        own = {n.id for n in ast.walk(loop.target) if type(n) is ast.Name}
        for n in (n for s in loop.body for n in ast.walk(s)):
            t = type(n)
            if t is ast.Call and type(n.func) is ast.Attribute and n.func.attr in _IN_PLACE:
                target = n.func.value
                while type(target) is ast.Call and type(target.func) is ast.Attribute:
                    target = target.func.value  # (``e.mul_(d).add_(p)``)
            elif t is ast.AugAssign:
                target = n.target
            elif t is ast.Assign and type(n.value) is ast.BinOp:
                target = n.targets[0]
            else:
                continue
            if type(target) is ast.Name and target.id in own and t is not ast.Assign or \
                    (dotted(target.value if type(target) is ast.Subscript else target)
                     or "").startswith("self."):
                return True
    return False
