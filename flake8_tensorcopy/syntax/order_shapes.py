"""TEN302's shape for the pre-filter: ``out = torch.empty_like(v)``, then ``out.copy_(v)``, two
statements of one block."""
from __future__ import annotations

import ast
from typing import Iterator

from .walk import statements

#: the ``*_like`` factories whose result a ``copy_`` fills
LIKE = frozenset({"empty_like", "zeros_like", "ones_like"})


def like_call(node: ast.expr) -> bool:
    """``torch.empty_like(v)``, ``zeros_like(v)``... with one positional argument (or a call of
    any plain name with one: an imported alias of one of them)."""
    if not isinstance(node, ast.Call) or len(node.args) != 1 or node.keywords:
        return False
    func = node.func
    return isinstance(func, ast.Name) or (isinstance(func, ast.Attribute) and func.attr in LIKE)


def two_step_copy(block: list) -> bool:
    """TEN302's two statements in one block: ``out = torch.empty_like(v)``, then
    ``out.copy_(v)``."""
    for prev, stmt in zip(block, block[1:]):
        if type(stmt) is ast.Expr and type(prev) is ast.Assign and len(prev.targets) == 1:
            call, target = stmt.value, prev.targets[0]
            if type(call) is ast.Call and type(call.func) is ast.Attribute and \
                    call.func.attr == "copy_" and type(call.func.value) is ast.Name and \
                    type(target) is ast.Name and target.id == call.func.value.id and \
                    like_call(prev.value):
                return True
    return False


def blocks(root: ast.AST) -> Iterator[list]:
    """Every statement list under ``root`` (its own included)."""
    for node in statements(root):
        for name in ("body", "orelse", "finalbody"):
            value = getattr(node, name, None)
            if type(value) is list and value and isinstance(value[0], ast.stmt):
                yield value
