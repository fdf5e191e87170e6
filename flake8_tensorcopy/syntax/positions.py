"""Positions of nodes of ``tree`` (built from ``ast``) as libcst's ``PositionProvider`` gives them.

``ast`` already knows where every node is; what differs from libcst's positions is small and
settled here from the source text:

- columns: ``ast`` counts UTF-8 bytes, libcst (and flake8, and every editor) characters;
- parentheses: like libcst, a node's position leaves out its own parentheses, but ``ast`` puts a
  parenthesized tuple's and a generator expression's parentheses inside theirs; ``code`` and
  ``outer`` (what a fix moves) include them, as libcst's ``code_for_node`` does. Which
  parentheses are a node's own is read from the text: the pairs right around it, less the call's
  own when it is the call's only argument;
- nodes ``ast`` does not have: an argument (``Arg``: its value with its parentheses, from the
  ``*``/keyword on), a line of ``;``-separated statements, the comma after an argument.

tests/test_positions.py compares every reported position and fix offset with libcst's
``PositionProvider`` on the test corpus.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from .source import LazyPattern, line_starts

#: a string literal or a comment's ``#``, to find where a line's comment starts
_STR_OR_HASH = LazyPattern(
    r"""[rRbBuUfF]{0,2}(?:'''|\"\"\"|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")|#""")
_WS = " \t\f"


def _starts_after(a) -> bool:
    """Does the tuple ``a``'s first element start after the tuple (at a brace: in an f-string)?"""
    first = a.elts[0]
    return (first.lineno, first.col_offset) != (a.lineno, a.col_offset)


class Tok:
    """A token placed by character offsets (a comma, a parenthesis)."""

    __slots__ = ("start", "end")
    _place = "tok"

    def __init__(self, start: int, end: int) -> None:
        self.start = start
        self.end = end


class Pos:
    __slots__ = ("line", "column")

    def __init__(self, line: int, column: int) -> None:
        self.line = line
        self.column = column


class Range:
    __slots__ = ("start", "end")

    def __init__(self, start: Pos, end: Pos) -> None:
        self.start = start
        self.end = end


class Text:
    """Offsets, spans and parentheses of nodes in ``source`` (character offsets throughout)."""

    def __init__(self, source: str, sole=frozenset()) -> None:
        self.source = source
        self.starts = line_starts(source)
        self.sole = sole
        #: id of a call's ``ast`` function -> the built node (``build.Builder.call_funcs``)
        self.call_funcs: dict = {}
        self._ascii: Dict[int, bool] = {}
        self._outer: Dict[int, Tuple[int, int, int]] = {}

    # -- units ----------------------------------------------------------------------------------
    def offset(self, line: int, col: int) -> int:
        """The character offset of ``ast``'s (line, byte column)."""
        starts = self.starts
        if line > len(starts):
            return len(self.source)
        start = starts[line - 1]
        if col == 0:
            return start
        asc = self._ascii.get(line)
        end = starts[line] if line < len(starts) else len(self.source)
        if asc is None:
            asc = self._ascii[line] = self.source[start:end].isascii()
        if asc:
            return start + col
        text = self.source[start:end].encode("utf-8", "surrogatepass")[:col]
        return start + len(text.decode("utf-8", "surrogatepass"))

    def position(self, offset: int) -> Pos:
        """(line, character column) of a character offset."""
        from bisect import bisect_right

        i = bisect_right(self.starts, offset)
        return Pos(i, offset - self.starts[i - 1])

    def range(self, node) -> Range:
        s, e = self.span(node)
        return Range(self.position(s), self.position(e))

    # -- spans ----------------------------------------------------------------------------------
    def ast_span(self, a) -> Tuple[int, int]:
        if type(a) is tuple:
            return self.offset(a[0], a[1]), self.offset(a[2], a[3])
        return self.offset(a.lineno, a.col_offset), self.offset(a.end_lineno, a.end_col_offset)

    def span(self, node) -> Tuple[int, int]:
        """The node's span as libcst's PositionProvider gives it (own parentheses left out)."""
        place = node._place  # how the class is placed (``tree`` sets it where ``ast`` differs)
        if place is None:
            return self.ast_span(node._a)
        if place == "tok":
            return node.start, node.end
        if place == "arg":
            if node._a is None:  # a positional argument: its value, parentheses included
                s, e, _ = self.outer(node.value)
                return s, e
            return self.ast_span(node._a)
        if place == "line":
            return self.span(node.body[0])[0], self.span(node.body[-1])[1]
        if place == "tuple" or place == "genexp":
            s, e = self.ast_span(node._a)
            if place == "genexp" or self.tuple_parenthesized(node) or (
                    self.source[s:s + 1] == "{" and node._a.elts and _starts_after(node._a)):
                # its parentheses (or, in an f-string, the braces around it) are inside
                return self._next(s + 1), self._prev(e - 1) + 1
            return s, e
        if place == "target":
            s, e, _ = self.outer(node.target)
            return s, e
        if node._a is None:  # "boolop": ``a and b`` inside ``a and b and c``
            return self.outer(node.left)[0], self.outer(node.right)[1]
        return self.ast_span(node._a)

    def tuple_parenthesized(self, node) -> bool:
        a = node._a
        if not a.elts:
            return True
        first = a.elts[0]
        if (first.lineno, first.col_offset) == (a.lineno, a.col_offset):
            return False
        start = self.offset(a.lineno, a.col_offset)
        if self.source[start:start + 1] != "(":
            return False  # ``f"{a, b}"``: in an f-string the position starts at the brace
        return self.outer(node.elements[0].value)[0] > start

    def outer(self, node) -> Tuple[int, int, int]:
        """(start, end, count) of the node with its own parentheses."""
        key = id(node)
        got = self._outer.get(key)
        if got is not None:
            return got
        place = node._place
        genexp = place == "genexp"
        if genexp or (place == "tuple" and self.source[
                self.offset(node._a.lineno, node._a.col_offset)] == "("):
            s, e = self.ast_span(node._a)
        else:
            s, e = self.span(node)
        base = 0
        if genexp or (place == "tuple" and self.tuple_parenthesized(node)):
            base = 1  # ``ast`` counts one pair inside the node
        pairs = self._pairs(s, e)
        if key in self.sole and (pairs or base):
            if pairs:
                pairs.pop()  # the outermost pair is the call's
            elif genexp:
                base = 0  # ``f(x for x in y)``: the only parentheses are the call's
        if pairs:
            s, e = pairs[-1]
        got = (s, e, base + len(pairs))
        if genexp and base == 0:
            got = (self._next(s + 1), self._prev(e - 1) + 1, 0)
        self._outer[key] = got
        return got

    def _pairs(self, s: int, e: int) -> List[Tuple[int, int]]:
        src = self.source
        n = len(src)
        out = []
        while True:
            b = self._prev(s)
            f = self._next(e)
            if b < 0 or f >= n or src[b] != "(" or src[f] != ")":
                return out
            s, e = b, f + 1
            out.append((s, e))

    # -- scanning -------------------------------------------------------------------------------
    def _next(self, i: int) -> int:
        """The offset of the first significant character at or after ``i`` (whitespace, line
        breaks, continuations and comments skipped)."""
        src = self.source
        n = len(src)
        while i < n:
            c = src[i]
            if c in _WS or c == "\n" or c == "\r":
                i += 1
            elif c == "\\" and i + 1 < n and src[i + 1] in "\r\n":
                i += 2
            elif c == "#":
                j = src.find("\n", i)
                k = src.find("\r", i)
                if j < 0 or (0 <= k < j):
                    j = k
                i = n if j < 0 else j
            else:
                return i
        return n

    def _prev(self, i: int) -> int:
        """The offset of the last significant character before ``i``, or -1."""
        src = self.source
        while i > 0:
            i -= 1
            c = src[i]
            if c in _WS:
                continue
            if c == "\n" or c == "\r":
                begin = max(src.rfind("\n", 0, i), src.rfind("\r", 0, i)) + 1
                if i > 0 and c == "\n" and src[i - 1] == "\r":
                    begin = max(src.rfind("\n", 0, i - 1), src.rfind("\r", 0, i - 1)) + 1
                    i -= 1
                line = src[begin:i]
                if line.endswith("\\"):
                    i = begin + len(line) - 1  # a continuation: the backslash is not code
                    continue
                if "#" in line:
                    for m in _STR_OR_HASH.finditer(line):
                        if m.group() == "#":
                            i = begin + m.start()
                            break
                continue
            return i
        return -1

    def comma_after(self, arg) -> Optional[Tok]:
        """The comma right after an argument, or None."""
        f = self._next(self.span(arg)[1])
        if f < len(self.source) and self.source[f] == ",":
            return Tok(f, f + 1)
        return None

    def simple_whitespace_after(self, end: int) -> bool:
        """Is the whitespace from ``end`` to the next token libcst's ``SimpleWhitespace`` (no
        comment, no line break other than a backslash continuation)?"""
        f = self._next(end)
        text = self.source[end:f].replace("\\\r\n", "").replace("\\\n", "").replace("\\\r", "")
        return "#" not in text and "\n" not in text and "\r" not in text
