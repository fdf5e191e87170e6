"""A libcst-shaped tree built from Python's ``ast``: what the rules and the inference read.

The rules and the inference were written against libcst's node classes (``Attribute(value,
attr=Name)``, ``Call(func, args=[Arg(value, keyword, star)])``, ``SimpleStatementLine(body)``...).
libcst's parse costs about ten times ``ast.parse`` and its import alone costs more than an editor
run may, so the lint path builds these light, slotted nodes from the ``ast`` tree instead (flake8
hands the plugin that tree for free). Classes and field names are libcst's; each node keeps the
``ast`` node it comes from (``_a``) for its position (see ``positions.py``). Only what the analysis
reads is kept: no whitespace, no parentheses (``positions`` finds them in the text when a rule
asks), no comments (``engine`` tokenizes the replaced spans of a fix).

``_fields`` lists, per class, the fields the engine's walk descends into, in libcst's dataclass
order (the walk's order decides which use of ``x.data`` is noted first); ``children`` gives the
child nodes in source order, names included (``x.y``'s ``y``, ``f(y=1)``'s ``y``), as libcst's does.
"""
from __future__ import annotations

import ast
import re
import typing as _t
from typing import Optional

from .positions import Text
from .source import split_lines


class Node:
    """A node: ``_a`` is its ``ast`` node, or a tuple (line, col, end line, end col) in ``ast``'s
    units (columns in UTF-8 bytes), or None where it is never placed."""

    __slots__ = ("_a",)
    _fields: tuple = ()
    _kids: tuple = ()
    #: how ``positions`` places the class where ``ast``'s position is not libcst's (None: as is)
    _place: Optional[str] = None

    @property
    def children(self) -> list:
        out = []
        for name in self._kids:
            value = getattr(self, name)
            if isinstance(value, Node):
                out.append(value)
            elif type(value) is list:
                out.extend(v for v in value if isinstance(v, Node))
        return out

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"{type(self).__name__}({', '.join(f'{s}={getattr(self, s)!r}' for s in self.__slots__)})"


#: libcst's abstract names, for annotations
CSTNode = Node
BaseExpression = Node


#: the ``__init__`` of each shape of slots, compiled together once (see ``_inits``)
_INITS: _t.Dict[tuple, object] = {}
_PENDING: _t.List[type] = []


def _make(name: str, slots: tuple, fields: Optional[tuple] = None,
          kids: Optional[tuple] = None) -> type:
    cls = type(name, (Node,), {
        "__slots__": slots,
        "_fields": slots if fields is None else fields,
        "_kids": (slots if fields is None else fields) if kids is None else kids,
        "__module__": __name__})
    _PENDING.append(cls)
    return cls


def _inits() -> None:
    """Give every class made by ``_make`` an ``__init__(self, _a, *slots)``: one ``exec`` for
    them all (compiling them one by one costs more than the rest of the import)."""
    shapes = sorted({cls.__slots__ for cls in _PENDING})
    code = []
    for i, slots in enumerate(shapes):
        params = "".join(f", {s}" for s in slots)
        body = "".join(f"    self.{s} = {s}\n" for s in slots)
        code.append(f"def init{i}(self, _a{params}):\n    self._a = _a\n{body}")
    ns: dict = {}
    exec("\n".join(code), ns)  # noqa: S102
    for i, slots in enumerate(shapes):
        _INITS[slots] = ns[f"init{i}"]
    for cls in _PENDING:
        cls.__init__ = _INITS[cls.__slots__]
    _PENDING.clear()


# ---- statements -------------------------------------------------------------------------------
Module = _make("Module", ("body", "text"), ("body",))
SimpleStatementLine = _make("SimpleStatementLine", ("body",))
SimpleStatementSuite = _make("SimpleStatementSuite", ("body",))
IndentedBlock = _make("IndentedBlock", ("body",))
Expr = _make("Expr", ("value",))
Assign = _make("Assign", ("targets", "value"))
AssignTarget = _make("AssignTarget", ("target",))
AnnAssign = _make("AnnAssign", ("target", "annotation", "value"))
AugAssign = _make("AugAssign", ("target", "operator", "value"), ("target", "value"))
Return = _make("Return", ("value",))
Raise = _make("Raise", ("exc", "cause"))
Del = _make("Del", ("target",))
Assert = _make("Assert", ("test", "msg"))
Import = _make("Import", ("names",))
ImportFrom = _make("ImportFrom", ("module", "names", "relative"), ("module", "names"))
ImportAlias = _make("ImportAlias", ("name", "asname"))
ImportStar = _make("ImportStar", ())
Dot = _make("Dot", ())
AsName = _make("AsName", ("name",))
Global = _make("Global", ("names",))
Nonlocal = _make("Nonlocal", ("names",))
NameItem = _make("NameItem", ("name",))
Pass = _make("Pass", ())
Break = _make("Break", ())
Continue = _make("Continue", ())
If = _make("If", ("test", "body", "orelse"))
Else = _make("Else", ("body",))
Finally = _make("Finally", ("body",))
For = _make("For", ("target", "iter", "body", "orelse", "asynchronous"),
            ("target", "iter", "body", "orelse"))
While = _make("While", ("test", "body", "orelse"))
With = _make("With", ("items", "body", "asynchronous"), ("items", "body"))
WithItem = _make("WithItem", ("item", "asname"))
Try = _make("Try", ("body", "handlers", "orelse", "finalbody"))
TryStar = _make("TryStar", ("body", "handlers", "orelse", "finalbody"))
ExceptHandler = _make("ExceptHandler", ("body", "type", "name"), None, ("type", "name", "body"))
FunctionDef = _make("FunctionDef", ("name", "params", "body", "decorators", "returns",
                                    "asynchronous"),
                    ("name", "params", "body", "decorators", "returns"),
                    ("decorators", "name", "params", "returns", "body"))
ClassDef = _make("ClassDef", ("name", "body", "bases", "keywords", "decorators"), None,
                 ("decorators", "name", "bases", "keywords", "body"))
Decorator = _make("Decorator", ("decorator",))
Parameters = _make("Parameters", ("params", "star_arg", "kwonly_params", "star_kwarg",
                                  "posonly_params"), None,
                   ("posonly_params", "params", "star_arg", "kwonly_params", "star_kwarg"))
Param = _make("Param", ("name", "annotation", "default", "star"), ("name", "annotation", "default"))
Annotation = _make("Annotation", ("annotation",))
Match = _make("Match", ("subject", "cases"))
MatchCase = _make("MatchCase", ("pattern", "body", "guard"), None, ("pattern", "guard", "body"))
#: a match pattern: the expressions and names it holds, in source order (nothing reads more)
MatchPattern = _make("MatchPattern", ("items",))

# ---- expressions ------------------------------------------------------------------------------
Name = _make("Name", ("value",), ())
Attribute = _make("Attribute", ("value", "attr"), ("value",), ("value", "attr"))
Call = _make("Call", ("func", "args"))
Arg = _make("Arg", ("value", "keyword", "star"), ("value",), ("keyword", "value"))
Subscript = _make("Subscript", ("value", "slice"))
SubscriptElement = _make("SubscriptElement", ("slice",))
Index = _make("Index", ("value",))
Slice = _make("Slice", ("lower", "upper", "step"))
BinaryOperation = _make("BinaryOperation", ("left", "operator", "right"), ("left", "right"))
UnaryOperation = _make("UnaryOperation", ("operator", "expression"), ("expression",))
BooleanOperation = _make("BooleanOperation", ("left", "operator", "right"), ("left", "right"))
Comparison = _make("Comparison", ("left", "comparisons"))
ComparisonTarget = _make("ComparisonTarget", ("operator", "comparator"), ("comparator",))
IfExp = _make("IfExp", ("test", "body", "orelse"), None, ("body", "test", "orelse"))
NamedExpr = _make("NamedExpr", ("target", "value"))
Lambda = _make("Lambda", ("params", "body"))
List = _make("List", ("elements",))
Tuple = _make("Tuple", ("elements",))
Set = _make("Set", ("elements",))
Dict = _make("Dict", ("elements",))
DictElement = _make("DictElement", ("key", "value"))
StarredDictElement = _make("StarredDictElement", ("value",))
Element = _make("Element", ("value",))
StarredElement = _make("StarredElement", ("value",))
ListComp = _make("ListComp", ("elt", "for_in"))
SetComp = _make("SetComp", ("elt", "for_in"))
GeneratorExp = _make("GeneratorExp", ("elt", "for_in"))
DictComp = _make("DictComp", ("key", "value", "for_in"))
CompFor = _make("CompFor", ("target", "iter", "ifs", "inner_for_in", "asynchronous"),
                ("target", "iter", "ifs", "inner_for_in"))
CompIf = _make("CompIf", ("test",))
Await = _make("Await", ("expression",))
Yield = _make("Yield", ("value",))
From = _make("From", ("item",))
SimpleString = _make("SimpleString", ("value", "evaluated_value"), ())
ConcatenatedString = _make("ConcatenatedString", ("left", "right"))
FormattedString = _make("FormattedString", ("parts",))
FormattedStringExpression = _make("FormattedStringExpression", ("expression", "format_spec"))
FormattedStringText = _make("FormattedStringText", ("value",), ())
Integer = _make("Integer", ("value",), ())
Float = _make("Float", ("value",), ())
Imaginary = _make("Imaginary", ("value",), ())
Ellipsis = _make("Ellipsis", ())  # noqa: A001 - libcst's name

# ---- operators (type tests only: shared instances) --------------------------------------------
_OPS: _t.Dict[type, type] = {}


def _op(name: str, *ast_types: type) -> type:
    cls = _make(name, ())
    for t in ast_types:
        _OPS[t] = cls
    return cls


And = _op("And", ast.And)
Or = _op("Or", ast.Or)
Not = _op("Not", ast.Not)
Minus = _op("Minus", ast.USub)
Plus = _op("Plus", ast.UAdd)
BitInvert = _op("BitInvert", ast.Invert)
Add = _op("Add", ast.Add)
Subtract = _op("Subtract", ast.Sub)
Multiply = _op("Multiply", ast.Mult)
MatrixMultiply = _op("MatrixMultiply", ast.MatMult)
Divide = _op("Divide", ast.Div)
FloorDivide = _op("FloorDivide", ast.FloorDiv)
Modulo = _op("Modulo", ast.Mod)
Power = _op("Power", ast.Pow)
LeftShift = _op("LeftShift", ast.LShift)
RightShift = _op("RightShift", ast.RShift)
BitOr = _op("BitOr", ast.BitOr)
BitAnd = _op("BitAnd", ast.BitAnd)
BitXor = _op("BitXor", ast.BitXor)
Equal = _op("Equal", ast.Eq)
NotEqual = _op("NotEqual", ast.NotEq)
LessThan = _op("LessThan", ast.Lt)
LessThanEqual = _op("LessThanEqual", ast.LtE)
GreaterThan = _op("GreaterThan", ast.Gt)
GreaterThanEqual = _op("GreaterThanEqual", ast.GtE)
Is = _op("Is", ast.Is)
IsNot = _op("IsNot", ast.IsNot)
In = _op("In", ast.In)
NotIn = _op("NotIn", ast.NotIn)
_inits()
Arg._place = "arg"
SimpleStatementLine._place = SimpleStatementSuite._place = "line"
Tuple._place = "tuple"
GeneratorExp._place = "genexp"
AssignTarget._place = "target"
BooleanOperation._place = "boolop"
_OPS = {t: cls(None) for t, cls in _OPS.items()}  # one shared instance per operator class


#: one string literal (with its prefix), as opposed to an implicit concatenation of several
_ONE_STRING = re.compile(
    r"[rRbBuUfF]{0,2}(?:'''(?:[^\\]|\\.)*?'''|\"\"\"(?:[^\\]|\\.)*?\"\"\""
    r"|'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\")", re.DOTALL)

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
        return AugAssign(a, self.ex(a.target), _OPS[type(a.op)], self.ex(a.value))

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

    def _funcdef(self, a):
        decorators = [Decorator(d, self.ex(d)) for d in a.decorator_list]
        params = self._params(a.args)
        returns = Annotation(a.returns, self.ex(a.returns)) if a.returns is not None else None
        return FunctionDef(a, Name(None, a.name), params, self.block(a.body), decorators,
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
            if _ONE_STRING.fullmatch(text):
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
        if _ONE_STRING.fullmatch(self._text(a)):
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
        return BinaryOperation(a, self.ex(a.left), _OPS[type(a.op)], self.ex(a.right))

    def _unaryop(self, a):
        return UnaryOperation(a, _OPS[type(a.op)], self.ex(a.operand))

    def _boolop(self, a):
        values = a.values
        op = _OPS[type(a.op)]
        node = self.ex(values[0])
        last = len(values) - 1
        for i in range(1, len(values)):
            v = values[i]
            where = a if i == last else None  # placed by its operands (``positions``)
            node = BooleanOperation(where, node, op, self.ex(v))
        return node

    def _compare(self, a):
        ex = self.ex
        return Comparison(a, ex(a.left), [ComparisonTarget(None, _OPS[type(op)], ex(c))
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


def build(tree: ast.Module, source: str, text: Text, skip: Optional[_t.Dict[int, str]] = None):
    """The module's tree for ``tree``, the ``ast`` of ``source``; ``text`` is the
    ``positions.Text`` of ``source``, which learns the builder's ``sole`` arguments."""
    builder = Builder(source, text, skip)
    text.sole = builder.sole
    return builder.module(tree)
