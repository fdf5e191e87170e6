"""A storage fact of the module's own functions: which return a basic-slice view of one of their
parameters (``def tail(x, k): return x[..., k:]``), so that a call of one stands for that view
of its argument (``tail(self.state, 1)`` is ``self.state[..., 1:]``: the same storage, the
same region). Read from the function's ``ast``: a body of one ``return`` (after a docstring)
of a subscript of a parameter whose index holds only parameters, constants and operators;
the call hands every parameter by position. Anything else is no such view. Also a class's
property returning a view of an attribute of ``self`` (``@property def tail(self): return
self.data[:, 1:]``: ``self.tail`` is ``self.data[:, 1:]``, ``property_view``)."""
from __future__ import annotations

import ast
from typing import Callable, Dict, Optional

from ..syntax import nodes
from ..syntax.build import parse_expression

#: what an index of such a view may hold: slices, tuples, constants, names, arithmetic
_INDEX_NODES = (ast.Slice, ast.Tuple, ast.Constant, ast.Name, ast.Load, ast.BinOp, ast.UnaryOp,
                ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.USub, ast.UAdd)


def _view_function(tree: ast.Module, name: str) -> Optional[ast.FunctionDef]:
    """The module's last top-level ``def name`` when it returns a view of a parameter (None
    where the top of the module binds the name otherwise after it)."""
    fn = None
    for stmt in getattr(tree, "body", ()):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if stmt.name == name:
                fn = stmt if type(stmt) is ast.FunctionDef else None
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            if any((a.asname or a.name).partition(".")[0] == name for a in stmt.names):
                fn = None
        elif any(type(n) is ast.Name and n.id == name and type(n.ctx) is ast.Store
                 for n in ast.walk(stmt)):
            fn = None
    return returning_view(fn)


def _undocumented(fn: ast.FunctionDef) -> list:
    """The statements of ``fn``'s body after its docstring."""
    first = fn.body[0] if fn.body else None
    return fn.body[1:] if type(first) is ast.Expr and type(first.value) is ast.Constant and \
        type(first.value.value) is str else fn.body


def returning_view(fn) -> Optional[ast.FunctionDef]:
    """``fn`` (a ``def``'s ``ast``, or anything else) when it returns a view of a parameter."""
    if type(fn) is not ast.FunctionDef or fn.decorator_list:
        return None
    body = _undocumented(fn)
    args = fn.args
    params = [a.arg for a in args.posonlyargs + args.args]
    if len(body) != 1 or type(body[0]) is not ast.Return or args.vararg or args.kwarg or \
            args.kwonlyargs:
        return None
    value = body[0].value
    if type(value) is not ast.Subscript or type(value.value) is not ast.Name or \
            value.value.id not in params:
        return None
    if not all(isinstance(n, _INDEX_NODES) and (type(n) is not ast.Name or n.id in params)
               for n in ast.walk(value.slice)):
        return None
    return fn


def returned_view(tree: Optional[ast.Module], call, code: Callable[[object], str],
                  cache: Optional[Dict[int, object]] = None,
                  imported: Optional[Callable[[object], object]] = None):
    """The view that ``call`` (a call of a function of ``tree``, the module, by its name, or
    one ``imported(func)`` finds the ``def`` of: a project module's) returns, as a subscript of
    what it is handed (``tail(self.state, 1)``: the tree of ``self.state[..., 1:]``), or None.
    ``code(node)``: the source text of an argument."""
    if type(call) is not nodes.Call or type(call.func) is not nodes.Name or tree is None or \
            any(a.keyword is not None or a.star for a in call.args):
        return None
    if cache is not None and id(call) in cache:
        return cache[id(call)]
    got = None
    fn = _view_function(tree, call.func.value)
    if fn is None and imported is not None:
        fn = returning_view(imported(call.func))
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args] if fn is not None else []
    if fn is not None and len(params) == len(call.args):
        try:
            given = {p: ast.parse(f"({code(a.value)})", mode="eval").body
                     for p, a in zip(params, call.args)}
            view = _Substitute(given).visit(
                ast.parse(ast.unparse(fn.body[-1].value), mode="eval"))
            got = parse_expression(ast.unparse(view.body))
        except (SyntaxError, ValueError, RecursionError):
            got = None
    if cache is not None:
        cache[id(call)] = got
    return got


class _Substitute(ast.NodeTransformer):
    def __init__(self, given: Dict[str, ast.expr]) -> None:
        self.given = given

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return self.given.get(node.id, node)


def property_view(classes, name: str):
    """The view ``self.<name>`` is, as a subscript of ``self``'s attribute (``self.data[:, 1:]``),
    where exactly one of ``classes`` (a class and those related to it: the same ``self``; their
    ``ast``) defines ``name``, as a ``@property`` whose body is one ``return`` (after a
    docstring) of a subscript of ``self.<attr>`` with an index of constants and operators; else
    None."""
    found = [s for c in classes for s in getattr(c, "body", ())
             if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Assign)) and
             (getattr(s, "name", None) == name or any(
                 type(t) is ast.Name and t.id == name for t in getattr(s, "targets", ())))]
    fn = found[0] if len(found) == 1 else None
    if type(fn) is not ast.FunctionDef or len(fn.decorator_list) != 1 or \
            type(fn.decorator_list[0]) is not ast.Name or fn.decorator_list[0].id != "property":
        return None
    body = _undocumented(fn)
    args = fn.args
    if len(body) != 1 or type(body[0]) is not ast.Return or len(args.args) != 1 or \
            args.posonlyargs or args.vararg or args.kwarg or args.kwonlyargs:
        return None
    value, me = body[0].value, args.args[0].arg
    if type(value) is not ast.Subscript or type(value.value) is not ast.Attribute or \
            type(value.value.value) is not ast.Name or value.value.value.id != me or \
            not all(isinstance(n, _INDEX_NODES) and type(n) is not ast.Name
                    for n in ast.walk(value.slice)):
        return None
    try:
        return parse_expression("self." + ast.unparse(value)[len(me) + 1:])
    except (SyntaxError, ValueError, RecursionError):
        return None
