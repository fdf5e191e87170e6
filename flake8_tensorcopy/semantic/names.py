"""Which names an expression reads, and which names a block of statements binds more than once:
the two syntactic questions the binding state (``scope.py``) asks of the code it walks."""
from __future__ import annotations

import ast
from typing import Dict, List, Set

from ..syntax import nodes


def names_read(node: nodes.BaseExpression) -> List[str]:
    """The plain names an expression reads (not attribute names, not inside lambdas)."""
    out: List[str] = []
    stack = [node]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is nodes.Name:
            out.append(n.value)
            continue
        if t is nodes.Attribute:
            stack.append(n.value)
            continue
        if t is nodes.Lambda:
            continue
        for field in n._fields:
            value = getattr(n, field)
            if isinstance(value, nodes.CSTNode):
                stack.append(value)
            elif type(value) is tuple or type(value) is list:
                stack.extend(v for v in value if isinstance(v, nodes.CSTNode))
    return out


def rebound_names(body: List[ast.stmt]) -> Set[str]:
    """Names bound more than once (a loop's target or a binding in a loop counts twice) by the
    statements ``body``, not looking into the functions and classes they define."""
    seen: Dict[str, int] = {}

    def bind(target: ast.AST, times: int) -> None:
        for a in ast.walk(target):
            if type(a) is ast.Name:
                seen[a.id] = seen.get(a.id, 0) + times

    stack = [(stmt, 1) for stmt in body]
    while stack:
        stmt, times = stack.pop()
        t = type(stmt)
        if t is ast.Assign:
            for target in stmt.targets:
                bind(target, times)
        elif t is ast.AnnAssign and stmt.value is not None:
            bind(stmt.target, times)
        elif t in (ast.For, ast.AsyncFor):
            bind(stmt.target, 2)
        elif t in (ast.With, ast.AsyncWith):
            for item in stmt.items:
                if item.optional_vars is not None:
                    bind(item.optional_vars, times)
        elif t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            seen[stmt.name] = seen.get(stmt.name, 0) + times
            continue
        elif t in (ast.Import, ast.ImportFrom):
            for alias in stmt.names:
                name = (alias.asname or alias.name).split(".")[0]
                seen[name] = seen.get(name, 0) + times
        elif t is ast.Delete:
            for target in stmt.targets:
                bind(target, 2)
        loop = 2 if t in (ast.For, ast.AsyncFor, ast.While) else times
        for field in ("body", "orelse", "finalbody"):
            stack.extend((s, loop) for s in getattr(stmt, field, ()) if isinstance(s, ast.stmt))
        for handler in getattr(stmt, "handlers", ()):
            if handler.name:
                seen[handler.name] = seen.get(handler.name, 0) + times
            stack.extend((s, times) for s in handler.body)
        for case in getattr(stmt, "cases", ()):
            for a in ast.walk(case.pattern):
                name = getattr(a, "name", None)
                if type(name) is str:
                    seen[name] = seen.get(name, 0) + 2
            stack.extend((s, times) for s in case.body)
    return {name for name, n in seen.items() if n > 1}
