"""Fix plans (edits described by nodes, ``rules.base.FixPlan``) turned into text edits at
character offsets; whether a fix would drop a comment; applying non-conflicting edits."""
from __future__ import annotations

import ast
import bisect
import operator
from typing import TYPE_CHECKING, Iterable, List, Optional, Tuple

from .diagnostics import Edit, Fix
from .syntax import nodes
from .syntax.positions import Text
from .syntax.source import line_starts, tokens
from .syntax.patterns import compile_pattern

if TYPE_CHECKING:  # only named in annotations: applying edits loads no rule
    from .rules.base import FixPlan


def _comments(source: str) -> List[Tuple[int, str]]:
    """(offset, text) of every comment of ``source``."""
    import tokenize

    out = []
    text = Text(source)
    try:
        for tok in tokens(source):
            if tok.type == tokenize.COMMENT:
                line, col = tok.start
                out.append((text.starts[line - 1] + col, tok.string))
    except (tokenize.TokenError, SyntaxError):
        pass  # what was read so far is all there is
    return out


def drops_comment(fix: Fix, source: str, comments: List[Tuple[int, str]]) -> bool:
    """Would ``fix`` delete a comment? (one inside a replaced span whose text no edit writes)"""
    spans = [e for e in fix.edits if e.end > e.start and "#" in source[e.start:e.end]]
    if not spans:
        return False
    if not comments:
        comments.extend(_comments(source))
        comments.append((-1, ""))  # marks the list as filled
    texts = [e.text for e in fix.edits]
    for at, value in comments:
        if value and any(e.start <= at < e.end for e in spans) and \
                not any(value in t for t in texts):
            return True
    return False


def _text(text, source: str, positions: Text) -> str:
    if type(text) is str:
        return text
    return "".join(p if type(p) is str else source.__getitem__(slice(*_span(p, positions)))
                   for p in text)


def _span(e, positions: Text) -> Tuple[int, int]:
    first = positions.span(e.node)
    last = positions.span(e.end) if e.end is not None else first
    return (first[1] if e.from_end else first[0], last[0] if e.to_start else last[1])


def _eat_line(source: str, start: int, end: int) -> Tuple[int, int]:
    """Widen ``[start, end)`` to its whole line when nothing else is on that line."""
    begin = source.rfind("\n", 0, start) + 1
    stop = source.find("\n", end)
    if stop < 0 or source[begin:start].strip() or source[end:stop].strip():
        return start, end
    return begin, stop + 1


def _enclosing(pieces, start: int, end: int, positions: Text) -> Tuple[int, int]:
    """The span a replace must cover so that its text keeps every other byte once: a piece
    that copies source text enclosing ``[start, end)`` (the node with its own parentheses and
    the comments inside them) replaces that whole text, not only the node's span; replacing
    the inner span would write the enclosing bytes twice."""
    for p in pieces:
        if type(p) is not str:
            s, e = _span(p, positions)
            if s <= start and end <= e:
                start, end = s, e
    return start, end


def plan_to_fix(plan: FixPlan, module, source: str, text: Text, newline: str) -> Optional[Fix]:
    edits = []
    for e in plan.edits:
        if e.kind == "replace":
            start, end = _span(e, text)
            if type(e.text) is not str:
                start, end = _enclosing(e.text, start, end, text)
            if e.eat_line:
                start, end = _eat_line(source, start, end)
            edits.append(Edit(start, end, _text(e.text, source, text)))
        elif e.kind == "insert":
            start = text.span(e.node)[0]
            edits.append(Edit(start, start, e.text))
        elif e.kind == "no_grad":
            start = text.span(e.node)[0]
            line_begin = start - text.position(start).column
            indent = source[line_begin:start]
            if indent.strip():
                return None
            body = f"with {e.text}.no_grad():{newline}{indent}{default_indent(module, source, text)}"
            edits.append(Edit(start, start, body))
        elif e.kind == "import_torch" or e.kind == "import":  # ``import`` names its module
            at = _import_offset(module, text, source)
            edits.append(Edit(at, at, f"import {e.text if e.kind == 'import' else 'torch'}{newline}"))
    return Fix(plan.description, plan.safety, tuple(sorted(set(edits))))


_INDENT = compile_pattern(r"[ \t\f]*")


def default_indent(module: nodes.Module, source: str, text: Optional[Text] = None) -> str:
    """The indentation of the file's first indented block (libcst's ``default_indent``: the
    first INDENT token's), four spaces when it has none. ``text``: the source's positions, if
    the caller has them (then only the line needed is read, not every line split)."""
    starts = text.starts if text is not None else line_starts(source)
    for stmt in module._a.body:
        body = getattr(stmt, "body", None) or getattr(stmt, "cases", None)
        if not isinstance(body, list) or not body:
            continue
        first = body[0]
        if isinstance(first, getattr(ast, "match_case", ())):
            first = first.pattern
        line = first.lineno
        for d in getattr(first, "decorator_list", ()):
            line = min(line, d.lineno)
        if line <= len(starts):
            end = starts[line] if line < len(starts) else len(source)
            here = source[starts[line - 1]:end]
        else:
            here = ""
        indent = _INDENT.match(here).group()
        col = first.col_offset if line == first.lineno else None
        if col is None or not here.encode("utf-8", "surrogatepass")[:col].strip():
            return indent  # the block starts its own line: the first INDENT
    return "    "


def _import_offset(module: nodes.Module, text: Text, source: str) -> int:
    """Where ``import torch`` goes: before the first statement that is not a docstring/__future__."""
    for i, stmt in enumerate(module.body):
        if type(stmt) is nodes.SimpleStatementLine and stmt.body:
            small = stmt.body[0]
            if i == 0 and type(small) is nodes.Expr and type(small.value) in (
                    nodes.SimpleString, nodes.ConcatenatedString):
                continue
            if type(small) is nodes.ImportFrom and not small.relative and small.module is not None \
                    and nodes.dotted_name(small.module) == "__future__":
                continue
        return _statement_start(stmt, text)
    return len(source) if module.body else 0


def _statement_start(stmt: nodes.CSTNode, text: Text) -> int:
    """A top-level statement's first token (a decorated definition's first decorator)."""
    a = stmt._a
    if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and a.decorator_list:
        d = a.decorator_list[0]
        return text._prev(text.offset(d.lineno, d.col_offset))  # the ``@``
    return text.span(stmt)[0]


def conflicts(a: Edit, b: Edit) -> bool:
    if a == b:
        return False
    if a.start == a.end and b.start == b.end:
        return a.start == b.start
    if a.start == a.end:
        return b.start < a.start < b.end
    if b.start == b.end:
        return a.start < b.start < a.end
    return a.start < b.end and b.start < a.end


#: an edit's sort key: the order of ``Edit``'s own comparisons, without a Python call per one
order_key = operator.attrgetter("start", "end", "text")


def sorted_edits(edits: Iterable[Edit]) -> List[Edit]:
    """``sorted(set(edits))``, in a fraction of the time (thousands of fixes in one file)."""
    return sorted(set(edits), key=order_key)


class EditSet:
    """Edits chosen so far, sorted, for asking whether a new edit conflicts with one of them
    (``conflicts``) without comparing it with all: only the chosen edits whose span touches the
    new one's can conflict with it (every conflict needs ``c.start <= e.end`` and
    ``c.end >= e.start``); they are found by bisecting the sorted starts, looking left no
    further than the longest chosen edit reaches. ``count`` holds how many pairs were compared
    (for the tests that guard the cost)."""

    __slots__ = ("_edits", "_keys", "_longest", "count")

    def __init__(self) -> None:
        self._edits: List[Edit] = []  # sorted, each once (an identical edit never conflicts)
        self._keys: List[Tuple[int, int, str]] = []  # their ``order_key``s
        self._longest = 0
        self.count = 0

    def conflicts(self, edit: Edit) -> bool:
        """Does ``edit`` conflict with a chosen edit (``conflicts(edit, chosen)``)?"""
        keys, edits = self._keys, self._edits
        lo = bisect.bisect_left(keys, (edit.start - self._longest,))
        hi = bisect.bisect_left(keys, (edit.end + 1,))
        for i in range(lo, hi):
            c = edits[i]
            if c.end >= edit.start:
                self.count += 1
                if conflicts(edit, c):
                    return True
        return False

    def add(self, edit: Edit) -> None:
        key = order_key(edit)
        i = bisect.bisect_left(self._keys, key)
        if i < len(self._keys) and self._keys[i] == key:
            return
        self._edits.insert(i, edit)
        self._keys.insert(i, key)
        if edit.end - edit.start > self._longest:
            self._longest = edit.end - edit.start


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """Apply non-conflicting edits (identical ones once)."""
    out = []
    pos = 0
    for e in sorted_edits(edits):
        out.append(text[pos:e.start])
        out.append(e.text)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)
