"""Builds the tree of ``nodes`` from Python's ``ast`` (``build``), skipping the code the
pre-filter found no candidate in."""
from __future__ import annotations

import ast
import typing as _t
from typing import Optional

from .nodes import (
    AnnAssign, Annotation, Arg, AsName, Assert, Assign, AssignTarget, Attribute, AugAssign,
    Await, BinaryOperation, BooleanOperation, Break, Call, ClassDef, CompFor, CompIf,
    Comparison, ComparisonTarget, ConcatenatedString, Continue, Decorator, Del, Dict,
    DictComp, DictElement, Dot, Element, Ellipsis, Else, ExceptHandler, Expr, Finally,
    Float, For, FormattedString, FormattedStringExpression, FormattedStringText, From,
    FunctionDef, GeneratorExp, Global, If, IfExp, Imaginary, Import, ImportAlias,
    ImportFrom, ImportStar, IndentedBlock, Index, Integer, Lambda, LaterBlock, List, ListComp,
    Match,
    MatchCase, MatchPattern, Module, Name, NameItem, NamedExpr, Nonlocal, Param, Parameters,
    Pass, Raise, Return, Set, SetComp, SimpleStatementLine, SimpleStatementSuite,
    SimpleString, Slice, StarredDictElement, StarredElement, Subscript, SubscriptElement,
    Try, TryStar, Tuple, UnaryOperation, While, With, WithItem, Yield, Node, OPERATORS,
    one_string,
)
from .positions import Text
from .prefilter import BODYLESS, DEFER
from .source import split_lines

_SMALL = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Raise, ast.Delete,
          ast.Assert, ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.Pass, ast.Break,
          ast.Continue)


class Builder:
    """Turns an ``ast`` module (of ``source``) into the libcst-shaped tree.

    ``skip`` maps the first line of a statement to the statement that stands in for it (the
    pre-filter's plan: a definition with no candidate becomes ``pass``, a long literal bound to a
    name ``name = []``), so code that cannot matter is never built.
    """

    def __init__(self, source: str, text: Text, skip: Optional[_t.Dict[int, str]] = None) -> None:
        self.source = source
        self.skip = skip or None
        #: ids of expressions that are a call's (or a class's) only argument: parentheses right
        #: around them are the call's, not theirs
        self.sole: _t.Set[int] = set()
        #: offsets and parentheses in ``source`` (``positions.Text``: given by the caller, which
        #: shares it with the engine; a subscript's tuple asks it whether it is parenthesized)
        self.text = text
        self._lines: Optional[_t.List[str]] = None
        #: id of a call's ``ast`` function, when a name or an attribute -> its node here (what a
        #: question about an ``ast`` call finds the walk's node by: TEN501's graph oracle)
        self.call_funcs: _t.Dict[int, Node] = {}

    # -- entry points -----------------------------------------------------------------------
    def module(self, tree: ast.Module) -> Node:
        return Module(tree, self.statements(tree.body), self.source)

    def ex(self, a: Optional[ast.AST]) -> Optional[Node]:
        if a is None:
            return None
        return _EXPRS[type(a)](self, a)

    # -- text -------------------------------------------------------------------------------
    def _source_lines(self) -> _t.List[str]:
        """The source's lines, with their ends, split where ``ast`` counts lines (not where
        ``str.splitlines`` does: it also splits at form feeds, \\x1c, \\x85, \\u2028...)."""
        lines = self._lines
        if lines is None:
            lines = self._lines = split_lines(self.source, keepends=True)
        return lines

    def _text(self, a: ast.AST) -> str:
        """The source text of ``a`` (one line or several)."""
        lines = self._source_lines()
        l1, l2 = a.lineno - 1, a.end_lineno - 1
        if l1 == l2:
            line = lines[l1]
            if line.isascii():
                return line[a.col_offset:a.end_col_offset]
            return line.encode("utf-8", "surrogatepass")[a.col_offset:a.end_col_offset].decode(
                "utf-8", "surrogatepass")
        first = lines[l1].encode("utf-8", "surrogatepass")[a.col_offset:]
        last = lines[l2].encode("utf-8", "surrogatepass")[:a.end_col_offset]
        return (first + "".join(lines[l1 + 1:l2]).encode("utf-8", "surrogatepass") + last).decode(
            "utf-8", "surrogatepass")

    def _starts_line(self, a: ast.stmt) -> bool:
        """Nothing but indentation before ``a`` on its line (a block, not ``if x: y``)."""
        lines = self._source_lines()
        line = lines[a.lineno - 1]
        if line.isascii():
            return not line[:a.col_offset].strip()
        return not line.encode("utf-8", "surrogatepass")[:a.col_offset].strip()

    # -- statements -------------------------------------------------------------------------
    def statements(self, body: list) -> list:
        out: list = []
        line = None
        last = -1
        skip = self.skip
        stmts = _STMTS
        for a in body:
            if skip is not None:
                first = a.lineno
                for d in getattr(a, "decorator_list", ()):
                    first = min(first, d.lineno)
                stand_in = skip.get(first)
                if stand_in is DEFER or stand_in is BODYLESS:
                    out.append(self._funcdef(a, later=True, bodyless=stand_in is BODYLESS))
                    line = None
                    continue
                if stand_in is not None:
                    out.append(SimpleStatementLine(None, [self._stand_in(a, first, stand_in)]))
                    line = None
                    continue
            if isinstance(a, _SMALL):
                node = stmts[type(a)](self, a)
                if line is not None and a.lineno == last:
                    line.body.append(node)
                else:
                    line = SimpleStatementLine(None, [node])
                    out.append(line)
                last = a.end_lineno
            else:
                line = None
                out.append(stmts[type(a)](self, a))
        return out

    def _stand_in(self, a: ast.stmt, first: int, stand_in: str) -> Node:
        """What the pre-filter's blanking puts in place of ``a``: at its first line, indented."""
        lines = self._source_lines()
        text = lines[first - 1]
        indent = len(text.encode("utf-8", "surrogatepass")) - len(
            text.lstrip().encode("utf-8", "surrogatepass"))
        where = (first, indent, first, indent + len(stand_in))
        if stand_in == "pass":
            return Pass(where)
        name = stand_in.split(" ", 1)[0]
        return Assign(where, [AssignTarget(None, Name(where, name))], List(None, []))

    def block(self, body: list) -> Node:
        """An indented block, or the statements after the colon on the header's line."""
        if body and not self._starts_line(body[0]):
            return SimpleStatementSuite(None, [_STMTS[type(a)](self, a) for a in body])
        return IndentedBlock(None, self.statements(body))

    def _orelse(self, body: list) -> Optional[Node]:
        return Else(None, self.block(body)) if body else None

    def _expr_stmt(self, a):
        return Expr(a, self.ex(a.value))

    def _assign(self, a):
        return Assign(a, [AssignTarget(t, self.ex(t)) for t in a.targets], self.ex(a.value))

    def _augassign(self, a):
        return AugAssign(a, self.ex(a.target), OPERATORS[type(a.op)], self.ex(a.value))

    def _annassign(self, a):
        return AnnAssign(a, self.ex(a.target), Annotation(a.annotation, self.ex(a.annotation)),
                         self.ex(a.value))

    def _return(self, a):
        return Return(a, self.ex(a.value))

    def _raise(self, a):
        return Raise(a, self.ex(a.exc), self.ex(a.cause))

    def _delete(self, a):
        if len(a.targets) == 1:
            return Del(a, self.ex(a.targets[0]))
        return Del(a, Tuple(None, [Element(None, self.ex(t)) for t in a.targets]))

    def _assert(self, a):
        return Assert(a, self.ex(a.test), self.ex(a.msg))

    def _import(self, a):
        return Import(a, [ImportAlias(n, _dotted(n.name),
                                      AsName(None, Name(None, n.asname)) if n.asname else None)
                          for n in a.names])

    def _importfrom(self, a):
        module = _dotted(a.module) if a.module else None
        if len(a.names) == 1 and a.names[0].name == "*":
            names = ImportStar(None)
        else:
            names = [ImportAlias(n, Name(None, n.name),
                                 AsName(None, Name(None, n.asname)) if n.asname else None)
                     for n in a.names]
        return ImportFrom(a, module, names, [Dot(None) for _ in range(a.level or 0)])

    def _global(self, a):
        return Global(a, [NameItem(None, Name(None, n)) for n in a.names])

    def _nonlocal(self, a):
        return Nonlocal(a, [NameItem(None, Name(None, n)) for n in a.names])

    def _if(self, a):
        orelse = a.orelse
        if len(orelse) == 1 and type(orelse[0]) is ast.If and self._is_elif(orelse[0]):
            other: Optional[Node] = self._if(orelse[0])
        else:
            other = self._orelse(orelse)
        return If(a, self.ex(a.test), self.block(a.body), other)

    def _is_elif(self, a: ast.If) -> bool:
        lines = self._source_lines()
        line = lines[a.lineno - 1]
        if not line.isascii():
            return line.encode("utf-8", "surrogatepass")[a.col_offset:].startswith(b"elif")
        return line.startswith("elif", a.col_offset)

    def _for(self, a):
        return For(a, self.ex(a.target), self.ex(a.iter), self.block(a.body),
                   self._orelse(a.orelse), type(a) is ast.AsyncFor)

    def _while(self, a):
        return While(a, self.ex(a.test), self.block(a.body), self._orelse(a.orelse))

    def _with(self, a):
        items = [WithItem(None, self.ex(i.context_expr),
                          AsName(None, self.ex(i.optional_vars)) if i.optional_vars else None)
                 for i in a.items]
        return With(a, items, self.block(a.body), type(a) is ast.AsyncWith)

    def _try(self, a):
        handlers = [ExceptHandler(h, self.block(h.body), self.ex(h.type),
                                  AsName(None, Name(None, h.name)) if h.name else None)
                    for h in a.handlers]
        cls = Try if type(a) is ast.Try else TryStar
        return cls(a, self.block(a.body), handlers, self._orelse(a.orelse),
                   Finally(None, self.block(a.finalbody)) if a.finalbody else None)

    def _params(self, args: ast.arguments) -> Node:
        positional = args.posonlyargs + args.args
        defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        ex = self.ex

        def param(p, default, star=""):
            ann = Annotation(p.annotation, ex(p.annotation)) if p.annotation is not None else None
            return Param(p, Name(None, p.arg), ann, ex(default), star)

        made = [param(p, d) for p, d in zip(positional, defaults)]
        n = len(args.posonlyargs)
        return Parameters(
            None, made[n:], param(args.vararg, None, "*") if args.vararg else None,
            [param(p, d) for p, d in zip(args.kwonlyargs, args.kw_defaults)],
            param(args.kwarg, None, "**") if args.kwarg else None, made[:n])

    def _funcdef(self, a, later: bool = False, bodyless: bool = False):
        """``later``: the body waits, unbuilt, until the walk asks for it (``build_later``);
        ``bodyless``: it is never built (a ``LaterBlock`` with no builder)."""
        decorators = [Decorator(d, self.ex(d)) for d in a.decorator_list]
        params = self._params(a.args)
        returns = Annotation(a.returns, self.ex(a.returns)) if a.returns is not None else None
        body = LaterBlock(None, a.body, None if bodyless else self) if later else \
            self.block(a.body)
        return FunctionDef(a, Name(None, a.name), params, body, decorators,
                           returns, type(a) is ast.AsyncFunctionDef)

    def _classdef(self, a):
        decorators = [Decorator(d, self.ex(d)) for d in a.decorator_list]
        bases = [self._arg(b) for b in a.bases]
        keywords = [self._keyword(k) for k in a.keywords]
        if len(bases) == 1 and not keywords and not bases[0].star:
            self.sole.add(id(bases[0].value))
        return ClassDef(a, Name(None, a.name), self.block(a.body), bases, keywords, decorators)

    def _match(self, a):
        cases = [MatchCase(c, self._pattern(c.pattern), self.block(c.body), self.ex(c.guard))
                 for c in a.cases]
        return Match(a, self.ex(a.subject), cases)

    def _pattern(self, p) -> Node:
        items: list = []
        stack = [p]
        while stack:  # in source order
            node = stack.pop()
            stack.extend(reversed(list(ast.iter_child_nodes(node))))
            t = type(node)
            if t is ast.MatchValue:
                items.append(self.ex(node.value))
            elif t is ast.MatchClass:
                items.append(self.ex(node.cls))
            elif t is ast.MatchMapping:
                items.extend(self.ex(k) for k in node.keys)
            elif t in (ast.MatchAs, ast.MatchStar) and node.name:
                items.append(Name(None, node.name))
        return MatchPattern(p, items)

    # -- expressions ------------------------------------------------------------------------
    def _name(self, a):
        return Name(a, a.id)

    def _attribute(self, a):
        attr = a.attr
        n = len(attr) if attr.isascii() else len(attr.encode("utf-8"))
        where = (a.end_lineno, a.end_col_offset - n, a.end_lineno, a.end_col_offset)
        return Attribute(a, self.ex(a.value), Name(where, attr))

    def _arg(self, v) -> Node:
        if type(v) is ast.Starred:
            return Arg(v, self.ex(v.value), None, "*")
        return Arg(None, self.ex(v), None, "")

    def _keyword(self, k) -> Node:
        if k.arg is None:
            return Arg(k, self.ex(k.value), None, "**")
        n = len(k.arg) if k.arg.isascii() else len(k.arg.encode("utf-8"))
        name = Name((k.lineno, k.col_offset, k.lineno, k.col_offset + n), k.arg)
        return Arg(k, self.ex(k.value), name, "")

    def _call(self, a):
        func = self.ex(a.func)
        if type(func) is Name or type(func) is Attribute:
            self.call_funcs[id(a.func)] = func
        args = [self._arg(v) for v in a.args]
        if a.keywords:
            kws = [self._keyword(k) for k in a.keywords]
            if args and _before(a.keywords[0], a.args[-1]):
                # ``f(a=1, *b)``: libcst keeps the arguments in source order
                pairs = sorted(zip(list(a.args) + list(a.keywords), args + kws),
                               key=lambda p: (p[0].lineno, p[0].col_offset))
                args = [p[1] for p in pairs]
            else:
                args += kws
        elif len(args) == 1 and not args[0].star:
            self.sole.add(id(args[0].value))
        return Call(a, func, args)

    def _constant(self, a):
        value = a.value
        t = type(value)
        if t is str or t is bytes:
            text = self._text(a)
            if one_string(text):
                return SimpleString(a, text, value)
            return ConcatenatedString(a, None, None)
        if value is None or t is bool:
            return Name(a, str(value))
        if t is int:
            return Integer(a, self._text(a))
        if t is float:
            return Float(a, self._text(a))
        if t is complex:
            return Imaginary(a, self._text(a))
        return Ellipsis(a)

    def _joinedstr(self, a):
        parts = self._fparts(a.values)
        if one_string(self._text(a)):
            return FormattedString(a, parts)
        return ConcatenatedString(a, None, FormattedString(None, parts))

    def _fparts(self, values) -> list:
        out = []
        for v in values:
            if type(v) is ast.FormattedValue:
                out.append(self._formatted_value(v))
            else:
                out.append(FormattedStringText(None, v.value))
        return out

    def _formatted_value(self, v):
        spec = self._fparts(v.format_spec.values) if v.format_spec is not None else []
        return FormattedStringExpression(v, self.ex(v.value), spec)

    def _subscript(self, a):
        value = self.ex(a.value)
        sl = a.slice
        if type(sl) is ast.Tuple and sl.elts:
            tup = self._tuple(sl)
            if not self.text.tuple_parenthesized(tup):
                elems = [SubscriptElement(e, el.value if type(el.value) is Slice else
                                          Index(e, el.value))
                         for e, el in zip(sl.elts, tup.elements)]
                return Subscript(a, value, elems)
            return Subscript(a, value, [SubscriptElement(sl, Index(sl, tup))])
        return Subscript(a, value, [SubscriptElement(sl, self._index(sl))])

    def _index(self, e):
        if type(e) is ast.Slice:
            return self._slice(e)
        return Index(e, self.ex(e))

    def _slice(self, a):
        return Slice(a, self.ex(a.lower), self.ex(a.upper), self.ex(a.step))

    def _binop(self, a):
        return BinaryOperation(a, self.ex(a.left), OPERATORS[type(a.op)], self.ex(a.right))

    def _unaryop(self, a):
        return UnaryOperation(a, OPERATORS[type(a.op)], self.ex(a.operand))

    def _boolop(self, a):
        values = a.values
        op = OPERATORS[type(a.op)]
        node = self.ex(values[0])
        last = len(values) - 1
        for i in range(1, len(values)):
            v = values[i]
            where = a if i == last else None  # placed by its operands (``positions``)
            node = BooleanOperation(where, node, op, self.ex(v))
        return node

    def _compare(self, a):
        ex = self.ex
        return Comparison(a, ex(a.left), [ComparisonTarget(None, OPERATORS[type(op)], ex(c))
                                          for op, c in zip(a.ops, a.comparators)])

    def _ifexp(self, a):
        return IfExp(a, self.ex(a.test), self.ex(a.body), self.ex(a.orelse))

    def _namedexpr(self, a):
        return NamedExpr(a, self.ex(a.target), self.ex(a.value))

    def _lambda(self, a):
        return Lambda(a, self._params(a.args), self.ex(a.body))

    def _elements(self, elts) -> list:
        ex = self.ex
        return [StarredElement(e, ex(e.value)) if type(e) is ast.Starred else Element(None, ex(e))
                for e in elts]

    def _list(self, a):
        return List(a, self._elements(a.elts))

    def _tuple(self, a):
        return Tuple(a, self._elements(a.elts))

    def _set(self, a):
        return Set(a, self._elements(a.elts))

    def _dict(self, a):
        ex = self.ex
        return Dict(a, [StarredDictElement(None, ex(v)) if k is None else
                        DictElement(None, ex(k), ex(v)) for k, v in zip(a.keys, a.values)])

    def _comp_for(self, generators) -> Optional[Node]:
        inner = None
        ex = self.ex
        for g in reversed(generators):
            inner = CompFor(None, ex(g.target), ex(g.iter), [CompIf(None, ex(t)) for t in g.ifs],
                            inner, bool(g.is_async))
        return inner

    def _listcomp(self, a):
        elt = self.ex(a.elt)
        return ListComp(a, elt, self._comp_for(a.generators))

    def _setcomp(self, a):
        elt = self.ex(a.elt)
        return SetComp(a, elt, self._comp_for(a.generators))

    def _genexp(self, a):
        elt = self.ex(a.elt)
        return GeneratorExp(a, elt, self._comp_for(a.generators))

    def _dictcomp(self, a):
        key, value = self.ex(a.key), self.ex(a.value)
        return DictComp(a, key, value, self._comp_for(a.generators))

    def _await(self, a):
        return Await(a, self.ex(a.value))

    def _yield(self, a):
        return Yield(a, self.ex(a.value))

    def _yield_from(self, a):
        return Yield(a, From(None, self.ex(a.value)))

    def _starred(self, a):
        return StarredElement(a, self.ex(a.value))


def _before(a: ast.AST, b: ast.AST) -> bool:
    return (a.lineno, a.col_offset) < (b.lineno, b.col_offset)


#: the builder's dispatch on ``ast`` node types: plain functions called with the builder (bound
#: methods kept on the builder would make every builder a reference cycle, freed only by the
#: garbage collector, and with it the source text and everything it had built)
_EXPRS = {
    ast.Name: Builder._name, ast.Attribute: Builder._attribute, ast.Call: Builder._call,
    ast.Constant: Builder._constant, ast.Subscript: Builder._subscript,
    ast.BinOp: Builder._binop, ast.UnaryOp: Builder._unaryop, ast.BoolOp: Builder._boolop,
    ast.Compare: Builder._compare, ast.IfExp: Builder._ifexp, ast.NamedExpr: Builder._namedexpr,
    ast.Lambda: Builder._lambda, ast.List: Builder._list, ast.Tuple: Builder._tuple,
    ast.Set: Builder._set, ast.Dict: Builder._dict, ast.ListComp: Builder._listcomp,
    ast.SetComp: Builder._setcomp, ast.GeneratorExp: Builder._genexp,
    ast.DictComp: Builder._dictcomp, ast.Await: Builder._await, ast.Yield: Builder._yield,
    ast.YieldFrom: Builder._yield_from, ast.Starred: Builder._starred,
    ast.JoinedStr: Builder._joinedstr, ast.Slice: Builder._slice,
    ast.FormattedValue: Builder._formatted_value,
}
_STMTS = {
    ast.Expr: Builder._expr_stmt, ast.Assign: Builder._assign, ast.AugAssign: Builder._augassign,
    ast.AnnAssign: Builder._annassign, ast.Return: Builder._return, ast.Raise: Builder._raise,
    ast.Delete: Builder._delete, ast.Assert: Builder._assert, ast.Import: Builder._import,
    ast.ImportFrom: Builder._importfrom, ast.Global: Builder._global,
    ast.Nonlocal: Builder._nonlocal, ast.Pass: lambda self, a: Pass(a),
    ast.Break: lambda self, a: Break(a), ast.Continue: lambda self, a: Continue(a),
    ast.If: Builder._if, ast.For: Builder._for, ast.AsyncFor: Builder._for,
    ast.While: Builder._while, ast.With: Builder._with, ast.AsyncWith: Builder._with,
    ast.Try: Builder._try, ast.FunctionDef: Builder._funcdef,
    ast.AsyncFunctionDef: Builder._funcdef, ast.ClassDef: Builder._classdef,
}
for _name, _method in (("Match", Builder._match), ("TryStar", Builder._try)):  # 3.10, 3.11
    if hasattr(ast, _name):
        _STMTS[getattr(ast, _name)] = _method


def _dotted(name: str) -> Node:
    parts = name.split(".")
    node: Node = Name(None, parts[0])
    for part in parts[1:]:
        node = Attribute(None, node, Name(None, part))
    return node


def parse_expression(text: str) -> Node:
    """An expression's tree (for string annotations); SyntaxError/ValueError if it is none."""
    if type(text) is not str:
        raise TypeError("not a str")
    a = ast.parse(text, mode="eval")
    return Builder(text, Text(text)).ex(a.body)


def build_later(node: Node) -> None:
    """Build the body of ``node`` (a ``FunctionDef`` whose body is a ``LaterBlock``) now."""
    later = node.body
    node.body = later.builder.block(later.body)


def build(tree: ast.Module, source: str, text: Text, skip: Optional[_t.Dict[int, str]] = None):
    """The module's tree for ``tree``, the ``ast`` of ``source``; ``text`` is the
    ``positions.Text`` of ``source``, which learns the builder's ``sole`` arguments."""
    builder = Builder(source, text, skip)
    text.sole = builder.sole
    text.call_funcs = builder.call_funcs
    return builder.module(tree)
