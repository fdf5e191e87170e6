"""What a rule may ask while the walk is at a node: the typed context the engine hands each
rule's ``check``. It reads the syntax (text, positions, parentheses) and the semantic model
(``ctx.inf``: what each expression is), and knows nothing of the pipeline around it."""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Tuple

from ..semantic import kinds
from ..semantic.kinds import is_tensor
from ..semantic.infer import Inference
from ..syntax import nodes
from ..syntax.positions import Text, Tok
from ..syntax.prefilter import first_line
from ..syntax.source import split_lines
from .base import NodeEdit, Src
from ..syntax.patterns import compile_pattern

_WS = compile_pattern(r"\s+")


UNASKED = object()  # a callee's qualified name not worked out yet

def clip(text: str, limit: int) -> str:
    """``text``, cut to ``limit`` characters with ``...`` where it is longer (a message's quote)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Context:
    """What a rule sees while the walk is at a node."""

    def __init__(self, module: nodes.Module, inference: Inference, source: str,
                 text: Optional[Text] = None) -> None:
        self.module = module
        self.inf = inference
        self.source = source
        #: offsets, spans and parentheses in ``source``
        self.text = text if text is not None else Text(source)
        #: how each ``X.data`` node is used, keyed by id(node): (use, detail)
        self.data_use: Dict[int, Tuple[str, Optional[str]]] = {}
        #: the method calls chained on an ``X.data`` node (``X.data.clone().detach()``), innermost
        #: first, keyed by id(node); only chains of two calls or more
        self.data_chain: Dict[int, tuple] = {}
        #: the statement (SimpleStatementLine) being walked and whether it is a lone statement
        self.stmt_line: Optional[nodes.SimpleStatementLine] = None
        #: the function (or the module) whose body is being walked
        self.scope_node: nodes.CSTNode = module
        # a file that defines its own ``data`` property/attribute makes unknown ``x.data`` ambiguous
        self.local_data_attr = "def data(" in source
        #: while the walk is at a call: its callee and, once asked, the callee's qualified name
        #: (the walk and several rules ask for it; nothing is bound while one node is being
        #: checked, so one answer serves them all; most calls never ask: a name imported from a
        #: project module is resolved through the index only when its qualified name is wanted)
        self._callee: Optional[nodes.CSTNode] = None
        self._callee_qual: object = UNASKED
        #: the spans of the expressions of f-strings' ``{expr=}`` fields: their text is printed
        self.printed_spans: List[Tuple[int, int]] = []

    # ---- the context a fix runs in (typed questions a rule asks) ----------------------------
    def doubted(self, node: nodes.BaseExpression) -> bool:
        """Does what ``node`` is rest on a binding that not every path reaching it agrees on
        (a loop's back edge, an exception edge, a ``global``/``nonlocal`` write, a walrus in a
        comprehension, a ``match`` capture)? A diagnostic may still rest on it; a SAFE fix may
        not."""
        return self.inf.doubted(node)

    def default_device_may_differ(self) -> bool:
        """Can a factory called here (``torch.tensor(t)``) put its result on another device than
        its input's: inside ``with torch.device(...)``, or in a file that calls
        ``torch.set_default_device``?"""
        return self.inf.default_device_may_differ

    @staticmethod
    def evaluated_once_or_twice_alike(node: nodes.BaseExpression) -> bool:
        """Does evaluating ``node`` once instead of twice (or the reverse) change nothing? Only
        for a plain name: an attribute may be a property, a subscript a ``__getitem__``."""
        return type(node) is nodes.Name

    def note_fstring_expression(self, node: nodes.CSTNode) -> None:
        """The walk is at an f-string field: remember its expression's span when the field is
        ``{expr=}`` (Python prints the expression's text: a fix there changes the output)."""
        expr = node.expression  # type: ignore[attr-defined]
        try:
            start, end, _ = self.text.outer(expr)
        except (AttributeError, TypeError, ValueError, IndexError):
            return
        rest = self.source[end:end + 64].lstrip(" \t\f\r\n")
        if rest.startswith("=") and not rest.startswith("=="):
            self.printed_spans.append((start, end))

    def in_printed_text(self, start: int, end: int) -> bool:
        """Does ``[start, end)`` touch the text of an f-string ``{expr=}`` expression?"""
        if start == end:  # an insertion
            return any(s <= start <= e for s, e in self.printed_spans)
        return any(start < e and end > s for s, e in self.printed_spans)

    # helpers used by rules
    def code(self, node: nodes.CSTNode) -> str:
        """The node's source text with its own parentheses (libcst's ``code_for_node``)."""
        s, e, _ = self.text.outer(node)
        code = self.source[s:e]
        if "\n" in code or "\r" in code:
            return _dedent(self.module._a, self.text, s, code)
        return code

    def parenthesized(self, node: nodes.CSTNode) -> bool:
        """Does the node have parentheses of its own (libcst's ``node.lpar``)?"""
        return self.text.outer(node)[2] > 0

    def comma(self, arg: nodes.Arg) -> Optional[Tok]:
        """The comma after an argument (libcst's ``arg.comma``), or None."""
        return self.text.comma_after(arg)

    def simple_whitespace_after(self, node: nodes.CSTNode) -> bool:
        """No comment or line break between ``node`` (an argument or a comma) and the next
        token: libcst's ``SimpleWhitespace`` in ``whitespace_after_arg``/``whitespace_after``."""
        return self.text.simple_whitespace_after(self.text.span(node)[1])

    def snippet(self, node: nodes.CSTNode, limit: int = 40) -> str:
        return clip(_WS.sub(" ", self.code(node)).strip(), limit)

    def operand(self, node: nodes.BaseExpression) -> str:
        """Code for ``node`` usable as the receiver of ``.method()`` (parenthesized if needed)."""
        text = self.code(node)
        if self.text.outer(node)[2] or type(node) in _ATOMS:
            return text
        return f"({text})"

    def operand_parts(self, node: nodes.BaseExpression) -> tuple:
        """``operand`` as edit pieces: the node's own source text, parenthesized if needed."""
        s, e, parens = self.text.outer(node)
        if parens:
            return (Src(Tok(s, s + 1), end=Tok(e - 1, e)),)
        if type(node) in _ATOMS:
            return (Src(node),)
        return ("(", Src(node), ")")

    def infer(self, node: nodes.BaseExpression):
        return self.inf.infer(node)

    def is_tensor(self, node: nodes.BaseExpression) -> bool:
        return is_tensor(self.inf.infer(node))

    def evidence(self, node: nodes.BaseExpression) -> str:
        """How ``node`` is known to be a tensor (``kinds.evidence``) on every path that reaches
        it; ``super()`` and what is reached through it are NOT: a rewrite there runs the
        subclass's own methods."""
        root = node
        while type(root) in (nodes.Attribute, nodes.Call, nodes.Subscript):
            root = root.value if type(root) is not nodes.Call else root.func
        if type(root) is nodes.Name and root.value == "super" and root is not node:
            return kinds.NOT
        known = kinds.evidence(self.inf.infer(node))
        if known == kinds.CLOSED and (self.inf.transforms or self.doubted(node)):
            # made here, but not every path that reaches here agrees (a loop's back edge, an
            # exception edge, another scope's write), or a functorch transform may run this
            # code on batched tensors: a signal, not a proof
            return kinds.SIGNAL
        if known == kinds.PROOF and self.doubted(node):
            return kinds.SIGNAL
        return known

    def qualname(self, node: nodes.BaseExpression) -> Optional[str]:
        if node is self._callee:
            q = self._callee_qual
            if q is UNASKED:
                q = self._callee_qual = self.inf.qualname(node)
            return q  # type: ignore[return-value]
        if type(node) is nodes.Name or type(node) is nodes.Attribute:
            return self.inf.qualname(node)
        return None

    def torch_ref(self, edits: List[NodeEdit]) -> Optional[str]:
        """The name to spell ``torch`` with at this point when the code runs; adds an ``import
        torch`` edit where no such name is bound (none at all, a star import, or only under
        ``if TYPE_CHECKING:``). None where ``torch`` names something else here (a parameter or
        local called ``torch``): no fix can spell it."""
        alias = self.inf.torch_alias()
        if alias is not None:
            return alias
        bound = self.inf.lookup("torch")
        if bound is not None and not (type(bound) is kinds.Qual and bound.qual == "torch"):
            return None
        edits.append(NodeEdit("import_torch", None))
        return "torch"

    def lone_statement(self) -> Optional[nodes.SimpleStatementLine]:
        line = self.stmt_line
        if line is not None and len(line.body) == 1:
            return line
        return None


def _dedent(tree: ast.Module, text: Text, start: int, code: str) -> str:
    """``code`` (a node's text, over several lines) as libcst's ``code_for_node`` prints it:
    lines that continue it inside brackets lose the indentation of the block that holds the
    node (libcst keeps them relative to it); lines inside a string or after a backslash stay."""
    first = text.position(start).line
    # the innermost statement holding the node's first line sets the block's indentation
    stmt = None
    body = tree.body
    while body:
        for a in body:
            if first_line(a) <= first <= a.end_lineno:
                stmt = a
                body = [s for f in ("body", "orelse", "finalbody") for s in getattr(a, f, ())
                        if isinstance(s, ast.stmt)]
                body += [s for h in getattr(a, "handlers", ()) for s in h.body]
                body += [s for c in getattr(a, "cases", ()) for s in c.body]
                break
        else:
            break
    if stmt is None:
        return code
    line = text.source[text.starts[stmt.lineno - 1]:]
    indent = line[:len(line) - len(line.lstrip(" \t\f"))]
    if not indent:
        return code
    keep = set()  # lines inside a string token that spans lines
    for a in ast.walk(stmt):
        if type(a) in (ast.Constant, ast.JoinedStr) and a.end_lineno > a.lineno:
            s, e = text.ast_span(a)
            for m in nodes.ONE_STRING.finditer(text.source, s, e):
                if "\n" in m.group() or "\r" in m.group():
                    lo = text.position(m.start()).line
                    keep.update(range(lo + 1, text.position(m.end()).line + 1))
    lines = split_lines(code, True)
    out = [lines[0]]
    for i, piece in enumerate(lines[1:], 1):
        if first + i not in keep and piece.startswith(indent) and \
                not lines[i - 1].rstrip("\r\n").endswith("\\"):
            piece = piece[len(indent):]
        out.append(piece)
    return "".join(out)


_ATOMS = (
    nodes.Name, nodes.Attribute, nodes.Call, nodes.Subscript, nodes.List, nodes.Dict, nodes.Set,
    nodes.ListComp, nodes.SetComp, nodes.DictComp, nodes.GeneratorExp, nodes.SimpleString,
    nodes.ConcatenatedString, nodes.FormattedString, nodes.Integer, nodes.Float, nodes.Imaginary,
)


# ---- statement structure, shared by the flow-reading rules (TEN402, TEN501) -------------------
_STMT_DEFS = (nodes.FunctionDef, nodes.ClassDef)


def cached(ctx, key: str, node, make):
    """``make()``, worked out once per node of the file being checked and kept on ``ctx``
    under ``key`` (held with its node: an id is not reused while the node lives)."""
    cache = ctx.__dict__.setdefault(key, {})
    hit = cache.get(id(node))
    if hit is None or hit[0] is not node:
        hit = cache[id(node)] = (node, make())
    return hit[1]


def statement_list(block) -> list:
    """The statements of a block (an ``elif`` is one statement, an ``else``'s body its own)."""
    if block is None:
        return []
    t = type(block)
    if t is nodes.If:
        return [block]
    if t in (nodes.Else, nodes.Finally):
        return statement_list(block.body)
    return list(getattr(block, "body", ()) or ())


def statement_blocks(stmt) -> List[list]:
    """The statement lists a compound statement holds, in source order (none for a simple
    statement or a definition)."""
    t = type(stmt)
    if t is nodes.SimpleStatementLine or t in _STMT_DEFS:
        return []
    out = [statement_list(stmt.body)] if hasattr(stmt, "body") else []
    for h in getattr(stmt, "handlers", ()) or ():
        out.append(statement_list(h.body))
    for c in getattr(stmt, "cases", ()) or ():
        out.append(statement_list(c.body))
    for f in ("orelse", "finalbody"):
        if getattr(stmt, f, None) is not None:
            out.append(statement_list(getattr(stmt, f)))
    return out


def enclosing_function(module, fn):
    """The function whose own block (or a block of its statements) defines ``fn``, or None."""
    todo = [(module, None)]
    while todo:
        n, owner = todo.pop()
        if n is fn:
            return owner
        if type(n) is nodes.FunctionDef:
            owner = n
        if type(n) in (nodes.Module, nodes.ClassDef, nodes.FunctionDef, nodes.If, nodes.Try,
                       nodes.IndentedBlock, nodes.Else, nodes.With, nodes.For, nodes.While):
            todo.extend((c, owner if type(n) is not nodes.ClassDef else None)
                        for c in n.children if c is not None)
    return None


def positional_param_names(fn) -> list:
    """The names of ``fn``'s positional parameters, in order (``self`` included)."""
    ps = fn.params
    return [p.name.value for p in (*(getattr(ps, "posonly_params", None) or ()), *ps.params)]


def param_names(fn) -> list:
    """The names of all of ``fn``'s parameters: positional, keyword-only, ``*args``,
    ``**kwargs``."""
    ps = fn.params
    out = positional_param_names(fn) + [p.name.value for p in ps.kwonly_params]
    for star in (ps.star_arg, ps.star_kwarg):
        if type(star) is nodes.Param:
            out.append(star.name.value)
    return out
