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
OPERATORS: _t.Dict[type, type] = {}


def _op(name: str, *ast_types: type) -> type:
    cls = _make(name, ())
    for t in ast_types:
        OPERATORS[t] = cls
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
OPERATORS = {t: cls(None) for t, cls in OPERATORS.items()}  # one shared instance per operator class


#: one string literal (with its prefix), as opposed to an implicit concatenation of several
ONE_STRING = re.compile(
    r"[rRbBuUfF]{0,2}(?:'''(?:[^\\]|\\.)*?'''|\"\"\"(?:[^\\]|\\.)*?\"\"\""
    r"|'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\")", re.DOTALL)


# ---- names ----------------------------------------------------------------------------------
def dotted_name(node: BaseExpression) -> Optional[str]:
    """``a.b.c`` for a Name/Attribute chain, else None (iterative: chains can be very long)."""
    parts: list = []
    while type(node) is Attribute:
        parts.append(node.attr.value)
        node = node.value
    if type(node) is not Name:
        return None
    parts.append(node.value)
    parts.reverse()
    return ".".join(parts)


def root_name(node: BaseExpression) -> Optional[str]:
    while True:
        t = type(node)
        if t is Attribute or t is Subscript:
            node = node.value
        elif t is Call:
            node = node.func
        elif t is Name:
            return node.value
        else:
            return None


def last_name(node: BaseExpression) -> Optional[str]:
    t = type(node)
    if t is Name:
        return node.value
    if t is Attribute:
        return node.attr.value
    return None
