"""Walks of Python's ``ast`` shared by the pre-filter and the project index: every node that may
hold an expression or a statement (``walk_nodes``, ``child_nodes``), the statements under a node
(``statements``), a dotted name's spelling, a statement's first line and whether it holds one of
some lines, the functions a loop over a display of them calls (``listed_names``)."""
from __future__ import annotations

import ast
from bisect import bisect_left
from collections import deque
from typing import Dict, Iterator, List, Optional, Tuple

#: list fields made of these hold statements (``match`` exists from Python 3.10)
_BLOCK_HOLDERS = (ast.stmt, ast.excepthandler) + ((ast.match_case,) if hasattr(ast, "match_case") else ())


def dotted(node: ast.expr) -> Optional[str]:
    """``a.b.c`` for an ``ast`` name or attribute chain, else None (the pre-filter's and the
    project index's one spelling of it)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


#: ``ast`` fields that never hold an expression or a statement: names and other scalars, the
#: load/store context and operator singletons, an import's ``alias`` list
_NO_SHAPE_FIELDS = frozenset({"ctx", "op", "ops", "id", "attr", "name", "names", "arg", "module",
                              "level", "type_comment", "kind", "is_async", "conversion", "simple",
                              "asname", "kwd_attrs", "type_ignores", "tag"})
#: per node class, the fields ``node_fields`` gives (filled as classes are met)
_DESCEND: dict = {}


def node_fields(t: type) -> tuple:
    """The fields of ``ast`` node class ``t`` that may hold an expression or a statement, in
    ``_fields`` order: a walk that reads only these meets every expression and statement
    ``ast.walk`` meets, without the contexts, operators, import aliases and scalars."""
    fields = _DESCEND.get(t)
    if fields is None:
        fields = _DESCEND[t] = tuple(f for f in getattr(t, "_fields", ())
                                     if f not in _NO_SHAPE_FIELDS and not (
                                         t is ast.Constant and f == "value"))
    return fields


def walk_nodes(root: ast.AST) -> Iterator[ast.AST]:
    """Every node under ``root`` (``root`` too) that a shape can be made of, depth first:
    ``ast.walk``'s nodes in another order, less the contexts, operators and import aliases
    (which hold nothing; the answers below do not depend on the order), each node class's
    fields read from a table (``_DESCEND``) instead of tested one by one. The project index
    reads it for answers that do not depend on the order (sets)."""
    todo = [root]
    pop, push, extend = todo.pop, todo.append, todo.extend
    table = _DESCEND
    while todo:
        node = pop()
        t = type(node)
        fields = table.get(t)
        if fields is None:
            if not isinstance(node, ast.AST):
                continue  # None for ``**d`` in a dict's keys; a pattern's constant
            fields = node_fields(t)
        yield node
        for name in fields:
            value = getattr(node, name, None)
            if type(value) is list:
                extend(value)
            elif value is not None:
                push(value)


def child_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """``ast.iter_child_nodes(node)`` less the contexts, operators, import aliases and scalars:
    the children that may hold an expression or a statement, in the same order."""
    for name in node_fields(type(node)):
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            yield value
        elif type(value) is list:
            for item in value:
                if isinstance(item, ast.AST):
                    yield item


#: per node class, its fields that may hold a block (filled as classes are met)
_BLOCK_FIELDS: dict = {}
_BLOCK_NAMES = ("body", "orelse", "finalbody", "handlers", "cases")


def statements(root: ast.AST, lines: Optional[List[int]] = None) -> Iterator[ast.AST]:
    """The statements under ``root`` (``root`` too, and the ``except``/``case`` clauses that hold
    blocks), in ``ast.walk``'s order: breadth first over the same edges, leaving out expressions
    (which never hold a statement). Only the fields that may hold a block are read
    (``_BLOCK_FIELDS``). With ``lines`` (sorted), only the statements whose lines hold one of
    them, entering only those: a statement starting on one is found without walking the rest
    (a clause without lines, a ``case``, is entered)."""
    todo = deque([root])
    pop, extend = todo.popleft, todo.extend
    table = _BLOCK_FIELDS
    while todo:
        node = pop()
        if lines is not None and node is not root and not on_lines(lines, node):
            continue
        yield node
        t = type(node)
        fields = table.get(t)
        if fields is None:
            fields = table[t] = tuple(f for f in getattr(t, "_fields", ()) if f in _BLOCK_NAMES)
        for name in fields:
            value = getattr(node, name, None)
            if type(value) is list and value and isinstance(value[0], _BLOCK_HOLDERS):
                extend(value)


def first_line(node: ast.stmt) -> int:
    """The first line of a statement: its first decorator's for a ``def`` or ``class``
    (decorators come in source order), else its own."""
    decorators = getattr(node, "decorator_list", None)
    return min(node.lineno, decorators[0].lineno) if decorators else node.lineno


def on_lines(lines: List[int], node: ast.AST) -> bool:
    """Does one of the sorted ``lines`` lie within ``node``'s lines (``_span``'s, from its first
    decorator's)? True for a node without lines (a ``case``, an ``arguments``)."""
    end = getattr(node, "end_lineno", None)
    if end is None:
        return True
    decorators = getattr(node, "decorator_list", None)
    i = bisect_left(lines, min(node.lineno, decorators[0].lineno) if decorators else node.lineno)
    return i < len(lines) and lines[i] <= end


def assigned_pairs(target: ast.expr, value: ast.expr):
    """(target, value) of an assignment, or of each item of a tuple target given a tuple
    display of as many items (``B, FRAME, HOP = 2, 8, 4``; ``rec, safe = A(), B()``)."""
    if type(target) is ast.Tuple and type(value) is ast.Tuple and \
            len(target.elts) == len(value.elts):
        return zip(target.elts, value.elts)
    return [(target, value)]


def own_nodes(fn: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``fn``'s body, not those of functions, lambdas or classes inside it (what
    a function summary reads of its own code)."""
    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
    # (a definition standing directly in the body is left out too, as one deeper down is)
    todo = [s for s in getattr(fn, "body", ()) if not isinstance(s, scopes)]
    while todo:
        n = todo.pop()
        yield n
        for child in ast.iter_child_nodes(n):
            if not isinstance(child, scopes):
                todo.append(child)


def class_of(tree, fn) -> Optional[ast.ClassDef]:
    """The class of the module ``tree`` whose body holds the method ``fn`` (None: none;
    a top-level class, or one in a top-level ``if``/``try``)."""
    todo = list(getattr(tree, "body", ()))
    while todo:
        stmt = todo.pop()
        t = type(stmt)
        if t is ast.ClassDef:
            if any(s is fn for s in stmt.body):
                return stmt
            todo.extend(stmt.body)
        elif t is ast.If or t is ast.Try:
            todo.extend(stmt.body + stmt.orelse)
    return None


def self_bindings(cls: ast.ClassDef) -> Dict[str, List[Optional[ast.expr]]]:
    """What the methods of ``cls`` bind each attribute of their first parameter (``self.x``)
    to: the values of ``self.x = v`` and ``self.x: T = v``; None for a binding of another form
    (augmented, through a tuple or list target, an annotation without a value)."""
    out: Dict[str, List[Optional[ast.expr]]] = {}
    for fn in cls.body:
        if type(fn) not in (ast.FunctionDef, ast.AsyncFunctionDef) or not fn.args.args:
            continue
        me = fn.args.args[0].arg
        for n in statements(fn):
            t = type(n)
            if t is ast.Assign:
                for target in n.targets:
                    for a in ast.walk(target):
                        if type(a) is ast.Attribute and type(a.value) is ast.Name and \
                                a.value.id == me and type(a.ctx) is ast.Store:
                            out.setdefault(a.attr, []).append(n.value if a is target else None)
            elif t is ast.AugAssign or t is ast.AnnAssign:
                a = n.target
                if type(a) is ast.Attribute and type(a.value) is ast.Name and a.value.id == me:
                    out.setdefault(a.attr, []).append(
                        n.value if t is ast.AnnAssign else None)
    return out


def listed_names(loop) -> Dict[str, Tuple[str, ...]]:
    """``for fn in (f, g):`` over a display of plain names, ``fn`` never bound in the body:
    ``{"fn": ("f", "g")}`` (a call of ``fn`` there calls each), else empty."""
    names = loop.iter.elts
    target = loop.target.id if type(loop.target) is ast.Name else None
    if target is None or not names or any(type(e) is not ast.Name for e in names) or sum(
            type(n) is ast.Name and n.id == target and type(n.ctx) is ast.Store
            for n in ast.walk(loop)) != 1:
        return {}
    return {target: tuple(e.id for e in names)}


def helper_call(func: ast.expr, helpers, modules) -> bool:
    """Is ``func`` a project function called by name (one of ``helpers``: ``to_tensor(a)``) or
    a function of a project module (one of ``modules``: ``utils.to_tensor(a)``)? The
    pre-filter's helper shapes (``storage_shapes.helper_written``,
    ``overlap_shapes.helper_copies``)."""
    t = type(func)
    return (t is ast.Name and func.id in helpers) or (
        t is ast.Attribute and type(func.value) is ast.Name and func.value.id in modules)
