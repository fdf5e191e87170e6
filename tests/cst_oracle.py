"""libcst as the oracle for ``tree``/``positions`` (tests only: the linter never imports libcst).

``mismatches(source)`` builds the tree of ``source`` and walks it beside libcst's module of the
same text (the classes and field names are libcst's, so the two walks pair node with node), and
lists every difference in what the engine reads: positions (``PositionProvider``), the code of an
expression with its parentheses (``code_for_node``), whether it has parentheses of its own
(``lpar``), an argument's comma and the whitespace libcst records after an argument or a comma,
and the module's default indentation.
"""
import ast

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from flake8_tensorcopy.syntax import nodes as T
from flake8_tensorcopy.syntax.build import build
from flake8_tensorcopy.edits import default_indent
from flake8_tensorcopy.rules.context import Context
from flake8_tensorcopy.syntax.positions import Text

#: nodes whose position the engine reads or that carry one (reports, edits, moved text)
PLACED = frozenset({
    "Name", "Attribute", "Call", "Arg", "Subscript", "BinaryOperation", "UnaryOperation",
    "BooleanOperation", "Comparison", "IfExp", "NamedExpr", "Lambda", "List", "Tuple", "Set",
    "Dict", "ListComp", "SetComp", "GeneratorExp", "DictComp", "Await", "Yield", "SimpleString",
    "ConcatenatedString", "FormattedString", "Integer", "Float", "Imaginary", "Ellipsis",
    "StarredElement", "Assign", "AugAssign", "AnnAssign", "Expr", "Return", "Raise", "Del",
    "Assert", "Import", "ImportFrom", "Pass", "Break", "Continue", "SimpleStatementLine",
})
EXPRESSIONS = PLACED - {"Arg", "Assign", "AugAssign", "AnnAssign", "Expr", "Return", "Raise",
                        "Del", "Assert", "Import", "ImportFrom", "Pass", "Break", "Continue",
                        "SimpleStatementLine", "StarredElement"}


def pairs(mine, theirs):
    """(tree node, libcst node) pairs, walking both trees together."""
    stack = [(mine, theirs)]
    while stack:
        a, b = stack.pop()
        if type(a).__name__ != type(b).__name__:
            continue
        yield a, b
        for field in type(a)._kids:
            x, y = getattr(a, field), getattr(b, field, None)
            if isinstance(x, T.Node) and isinstance(y, cst.CSTNode):
                stack.append((x, y))
            elif type(x) is list and isinstance(y, (list, tuple)) and len(x) == len(y):
                stack.extend((p, q) for p, q in zip(x, y)
                             if isinstance(p, T.Node) and isinstance(q, cst.CSTNode))


#: what TEN401's ``read_after`` looks at while it walks ``children``
SEEN = frozenset({"Name", "Assign", "AugAssign", "Attribute", "Subscript", "Call", "Expr",
                  "AssignTarget", "For", "While"})


def mentions(node) -> list:
    """The nodes ``read_after`` tells apart, in the order a walk over ``children`` meets them
    (names with their text): the same for both trees, or TEN401 reads another program."""
    out = []
    stack = [node]
    while stack:
        n = stack.pop()
        name = type(n).__name__
        if name in SEEN:
            out.append(name + ":" + n.value if name == "Name" else name)
        stack.extend(reversed(n.children))
    return out


def mismatches(source: str):
    """(list of differences, number of nodes compared) for ``source``."""
    module = cst.parse_module(source)
    ref = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    text = Text(source)
    mine = build(ast.parse(source), source, text)
    ctx = Context(mine, None, source, text)
    out = []
    n = 0
    ours, theirs = mentions(mine), mentions(module)
    if ours != theirs:
        i = next((i for i, (x, y) in enumerate(zip(ours, theirs)) if x != y), min(len(ours), len(theirs)))
        out.append(("Module", "children", ours[max(0, i - 3):i + 3], theirs[max(0, i - 3):i + 3]))
    if default_indent(mine, source) != module.default_indent:  # what a ``no_grad`` fix indents by
        out.append(("Module", "default_indent", default_indent(mine, source),
                    module.default_indent))

    def pos(rng):
        return (rng.start.line, rng.start.column, rng.end.line, rng.end.column)

    bases = set()  # a class's bases: libcst gives the whitespace before ``)`` to the class
    for a, b in pairs(mine, module):
        name = type(a).__name__
        if name == "ClassDef":
            bases.update(id(x) for x in a.bases + a.keywords)
        if name not in PLACED:
            continue
        if a._a is None and name not in ("Arg", "SimpleStatementLine", "BooleanOperation"):
            continue  # a name inside an import or a definition: never placed
        n += 1
        got = pos(text.range(a))
        want = pos(ref[b])
        if got != want:
            out.append((name, "position", got, want, module.code_for_node(b)[:60]))
        if name in EXPRESSIONS:
            code = module.code_for_node(b)
            if ctx.code(a) != code:
                out.append((name, "code", ctx.code(a)[:60], code[:60]))
            if ctx.parenthesized(a) != bool(b.lpar):
                out.append((name, "lpar", ctx.parenthesized(a), len(b.lpar), code[:60]))
            elif b.lpar:
                s, e, k = text.outer(a)
                if k != len(b.lpar) or (text.position(s).line, text.position(s).column) != (
                        ref[b.lpar[0]].start.line, ref[b.lpar[0]].start.column):
                    out.append((name, "parens", k, len(b.lpar), code[:60]))
        if name == "Arg":
            comma = ctx.comma(a)
            if (comma is not None) != isinstance(b.comma, cst.Comma):
                out.append(("Arg", "comma", comma is not None, module.code_for_node(b)[:60]))
                continue
            if comma is not None:
                if pos(text.range(comma)) != pos(ref[b.comma]):
                    out.append(("Arg", "comma position", pos(text.range(comma)), pos(ref[b.comma])))
                simple = type(b.comma.whitespace_after) is cst.SimpleWhitespace
                if ctx.simple_whitespace_after(comma) != simple:
                    out.append(("Arg", "whitespace after comma", not simple,
                                module.code_for_node(b)[:60]))
            simple = type(b.whitespace_after_arg) is cst.SimpleWhitespace
            if ctx.simple_whitespace_after(a) != simple and id(a) not in bases:
                out.append(("Arg", "whitespace after arg", not simple,
                            module.code_for_node(b)[:60]))
    return out, n
