"""Which names hold integers, read from every binding of the name in its scope.

A name read as an index (``x[i, 1:]``) selects one position only if it holds an integer: a
boolean or integer tensor, a list or an array there is advanced indexing, which copies. The
kind inference knows tensors, not integers; this module answers on evidence only: every binding
of the name in the scope that binds it (flow-insensitive, so a loop's back edge or a later branch
cannot bring another value unseen) is an integer literal or arithmetic on integers
(``+ - * // %``), ``len(...)``, ``int(...)``, ``x.size(i)``, ``x.shape[i]``, ``x.numel()``,
``x.dim()``, ``x.ndim``, ``min``/``max`` of integers, the variable of a ``for`` over ``range(...)``
(or the counter of ``enumerate(...)``, or the numbers of a flattened tensor's ``tolist()``), or a
name annotated ``int``; a parameter counts only with
an ``int`` annotation. A name with no binding seen, declared ``global``/``nonlocal``, or bound any
other way (unpacking, ``with``, a walrus, a call of unknown result) is not known to hold one.

Asked only by a rule about to report (a handful of times per file): nothing is kept.
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Set, Tuple

from ..syntax import nodes
from ..syntax.nodes import dotted_name

#: scopes of their own: their bindings are not the enclosing function's
_OWN_SCOPES = (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda, nodes.ListComp, nodes.SetComp,
               nodes.GeneratorExp, nodes.DictComp)
_INT_OPS = (nodes.Add, nodes.Subtract, nodes.Multiply, nodes.FloorDivide, nodes.Modulo)
_INT_METHODS = frozenset({"numel", "dim", "ndimension", "nelement", "__len__"})
_INT_FUNCS = frozenset({"len", "int"})
#: a binding: (how: "int" evidence, "expr" (its value decides), "other" (no evidence)), value
Binding = Tuple[str, Optional[nodes.BaseExpression]]


def bindings(scope: nodes.CSTNode, name: str) -> Optional[List[Binding]]:
    """Every binding of ``name`` in ``scope`` (a function or the module), or None where the
    name is declared ``global``/``nonlocal`` there (another scope binds it)."""
    out: List[Binding] = []
    if type(scope) is nodes.FunctionDef:
        params = scope.params
        for group in (params.posonly_params, params.params, params.kwonly_params):
            for p in group or ():
                if p.name.value == name:
                    out.append(("int" if _is_int_annotation(p.annotation) else "other",
                                p.default))
        for p in (params.star_arg, params.star_kwarg):
            if type(p) is nodes.Param and p.name.value == name:
                out.append(("other", None))
    body = scope.body
    for n in nodes.within(body, _OWN_SCOPES):
        t = type(n)
        if t is nodes.Assign:
            for target in n.targets:
                _target(target.target, name, ("expr", n.value), out)
        elif t is nodes.AnnAssign:
            if type(n.target) is nodes.Name and n.target.value == name:
                out.append(("int", n.value) if _is_int_annotation(n.annotation) else
                           ("expr", n.value) if n.value is not None else ("other", None))
        elif t is nodes.AugAssign:
            if type(n.target) is nodes.Name and n.target.value == name:
                out.append(("expr", n.value) if type(n.operator) in _INT_OPS else ("other", None))
        elif t is nodes.For:
            _for_target(n.target, n.iter, name, out)
        elif t in (nodes.Global, nodes.Nonlocal):
            if any(item.name.value == name for item in n.names):
                return None
        elif t in (nodes.AsName, nodes.NamedExpr, nodes.ExceptHandler, nodes.ImportAlias,
                   nodes.MatchPattern, nodes.Del):
            if _mentions(n, name):
                out.append(("other", None))
    return out


def _mentions(node: nodes.CSTNode, name: str) -> bool:
    """Does a binding form (``as x``, ``(x := ...)``, ``except E as x``, ``import x``, a match
    pattern, ``del x``) bind ``name``? Read widely: any ``Name`` under it, or its text."""
    if type(node) is nodes.ImportAlias:
        bound = dotted_name(node.asname.name) if node.asname is not None else \
            (dotted_name(node.name) or "").split(".", 1)[0]
        return bound == name
    if type(node) is nodes.ExceptHandler:
        return node.name is not None and dotted_name(node.name.name) == name
    if type(node) is nodes.NamedExpr:
        return dotted_name(node.target) == name
    if type(node) is nodes.Del:
        return any(type(x) is nodes.Name and x.value == name for x in nodes.within(node.target))
    return any(type(x) is nodes.Name and x.value == name
               for x in nodes.within(node, _OWN_SCOPES))


def _target(target: nodes.BaseExpression, name: str, value: Binding, out: List[Binding]) -> None:
    t = type(target)
    if t is nodes.Name:
        if target.value == name:
            out.append(value)
    elif t in (nodes.Tuple, nodes.List):
        for e in target.elements:  # unpacking: what each item is is not read
            _target(e.value, name, ("other", None), out)
    elif t is nodes.StarredElement:
        _target(target.value, name, ("other", None), out)


def _for_target(target, iterable, name: str, out: List[Binding]) -> None:
    func = dotted_name(iterable.func) if type(iterable) is nodes.Call else None
    if type(target) is nodes.Name:
        if target.value == name:
            out.append(("int", None) if func == "range" or _flat_items(iterable)
                       else ("other", None))
        return
    if func == "enumerate" and type(target) in (nodes.Tuple, nodes.List) and target.elements:
        first = target.elements[0].value
        if type(first) is nodes.Name and first.value == name:
            out.append(("int", None))
        for e in target.elements[1:]:
            _target(e.value, name, ("other", None), out)
        return
    _target(target, name, ("other", None), out)


#: calls that make a tensor one-dimensional (``x.view(-1)``, ``x.reshape(-1)``: with -1 alone)
_FLATTENING = frozenset({"flatten", "ravel", "view", "reshape"})


def _flat_items(iterable) -> bool:
    """Is ``iterable`` the list of a one-dimensional tensor's numbers
    (``mask.nonzero().flatten().tolist()``, ``idx.view(-1).tolist()``)? Each item is a Python
    number, and one read as an index is an integer (a float index raises)."""
    if type(iterable) is not nodes.Call or iterable.args or \
            type(iterable.func) is not nodes.Attribute or iterable.func.attr.value != "tolist":
        return False
    inner = iterable.func.value
    if type(inner) is not nodes.Call or type(inner.func) is not nodes.Attribute or \
            inner.func.attr.value not in _FLATTENING:
        return False
    args = inner.args
    if inner.func.attr.value in ("flatten", "ravel"):
        return not args
    return len(args) == 1 and args[0].keyword is None and not args[0].star and \
        type(args[0].value) is nodes.UnaryOperation and \
        type(args[0].value.expression) is nodes.Integer and \
        args[0].value.expression.value == "1"


def _is_int_annotation(ann: Optional[nodes.Annotation]) -> bool:
    return ann is not None and dotted_name(ann.annotation) in ("int", "builtins.int")


def _scope_of(scopes: Sequence[nodes.CSTNode], name: str
              ) -> Tuple[Optional[nodes.CSTNode], Optional[List[Binding]]]:
    """The first of ``scopes`` (innermost first) that binds ``name``, and its bindings."""
    for scope in scopes:
        found = bindings(scope, name)
        if found is None:
            return scope, None
        if found:
            return scope, found
    return None, None


def holds_int(scopes: Sequence[nodes.CSTNode], name: str,
              _seen: Optional[Set[str]] = None) -> bool:
    """Does ``name`` hold an integer wherever it is read in the innermost of ``scopes``
    (innermost first) that binds it? Only on evidence: see the module's docstring."""
    seen = _seen if _seen is not None else set()
    if name in seen:
        return True  # ``i = i + 1``: an integer where the other bindings make it one
    seen.add(name)
    scope, found = _scope_of(scopes, name)
    if not found:
        return False
    inner = tuple(scopes)[next(i for i, s in enumerate(scopes) if s is scope):]
    for how, value in found:
        if how == "other" or (how == "expr" and not int_expr(inner, value, seen)):
            return False
    return True


def int_expr(scopes: Sequence[nodes.CSTNode], node: Optional[nodes.BaseExpression],
             seen: Optional[Set[str]] = None, depth: int = 0) -> bool:
    """Is ``node`` an integer on evidence (literals, integer arithmetic, sizes, names that
    hold integers)?"""
    if node is None or depth > 30:
        return False
    t = type(node)
    if t is nodes.Integer:
        return True
    if t is nodes.UnaryOperation:
        return type(node.operator) in (nodes.Minus, nodes.Plus) and \
            int_expr(scopes, node.expression, seen, depth + 1)
    if t is nodes.BinaryOperation:
        return type(node.operator) in _INT_OPS and \
            int_expr(scopes, node.left, seen, depth + 1) and \
            int_expr(scopes, node.right, seen, depth + 1)
    if t is nodes.IfExp:
        return int_expr(scopes, node.body, seen, depth + 1) and \
            int_expr(scopes, node.orelse, seen, depth + 1)
    if t is nodes.Name:
        return holds_int(scopes, node.value, set(seen) if seen is not None else None)
    if t is nodes.Attribute:
        return node.attr.value == "ndim"
    if t is nodes.Subscript:  # ``x.shape[1]``
        return type(node.value) is nodes.Attribute and node.value.attr.value == "shape" and \
            len(node.slice) == 1 and type(node.slice[0].slice) is nodes.Index and \
            type(node.slice[0].slice.value) in (nodes.Integer, nodes.UnaryOperation)
    if t is nodes.Call:
        return _int_call(scopes, node, seen, depth)
    return False


def _int_call(scopes, node: nodes.Call, seen, depth: int) -> bool:
    args = node.args
    if any(a.keyword is not None or a.star for a in args):
        return False
    func = node.func
    if type(func) is nodes.Name:
        if func.value in _INT_FUNCS:
            return len(args) == 1
        if func.value in ("min", "max") and len(args) >= 2:
            return all(int_expr(scopes, a.value, seen, depth + 1) for a in args)
        return False
    if type(func) is nodes.Attribute:
        if func.attr.value in _INT_METHODS:
            return not args
        if func.attr.value == "size":
            return len(args) == 1 and type(args[0].value) in (nodes.Integer, nodes.UnaryOperation)
    return False


def sized(symbol: str) -> bool:
    """Is a symbol of ``regions`` a size (``len(x)``, ``x.shape[1]``) or ``int(...)``?"""
    return symbol.startswith(("len(", "int(")) or ".shape[" in symbol


def negative_literal(scopes: Sequence[nodes.CSTNode], name: str) -> bool:
    """Is ``name`` bound somewhere in its scope (or given as a default) to a negative integer
    literal (``k = -2``)? A shift by it is no shift by a positive amount."""
    _, found = _scope_of(scopes, name)
    return any(_negative(value) for _, value in found or ())


def _negative(node: Optional[nodes.BaseExpression]) -> bool:
    return type(node) is nodes.UnaryOperation and type(node.operator) is nodes.Minus and \
        type(node.expression) is nodes.Integer and int(node.expression.value, 0) > 0


def scopes_at(scope_node: nodes.CSTNode, module: nodes.Module) -> Tuple[nodes.CSTNode, ...]:
    """The scopes a name read in ``scope_node`` may be bound in, innermost first (a function
    nested in another sees its own and the module's: an enclosing function's are not read, so
    a name bound only there has no evidence)."""
    return (scope_node,) if scope_node is module else (scope_node, module)
