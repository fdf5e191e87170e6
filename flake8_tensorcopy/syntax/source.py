"""Reading source text faithfully: encoding (PEP 263 cookie, BOM), newlines, line offsets."""
from __future__ import annotations

import bisect
import io
import operator
import re
import tokenize
from .patterns import compile_pattern
from .records import record
from functools import partial
from itertools import accumulate
from typing import Iterable, Iterator, List, Optional, Tuple

_LINE_END = compile_pattern(r"\r\n|\r|\n")


class LazyPattern:
    """A regular expression compiled on its first use (``LazyPattern(r"...").finditer(text)``),
    from the code ``patterns`` keeps for this interpreter where it has it. Compiling one costs
    tens of microseconds, in every process: an editor's run on a training script compiled 73 of
    the lint path's patterns (3 ms) and used 41. For patterns asked once a file, not once a node
    (each use costs an attribute lookup through ``__getattr__``)."""

    __slots__ = ("pattern", "flags", "_compiled")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: Optional["re.Pattern[str]"] = None

    def __getattr__(self, name: str):
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = compile_pattern(self.pattern, self.flags)
        return getattr(compiled, name)


#: n -> n + 1, without a Python-level call
_PLUS_ONE = (1).__add__
_LAST_CHAR = operator.itemgetter(-1)


class SourceError(Exception):
    """The bytes of a file cannot be turned into Python source text."""


@record
class DecodedSource:
    text: str  # without BOM
    encoding: str
    bom: bool
    raw: bytes = b""  # the bytes as read

    def encode(self, text: str) -> bytes:
        data = text.encode(self.encoding)
        return (b"\xef\xbb\xbf" + data) if self.bom else data


def encoding_of(data: bytes) -> str:
    """The encoding Python reads file bytes in: ``utf-8-sig`` after a BOM, else the coding
    cookie's, else ``utf-8`` (raises SyntaxError or LookupError for a cookie it refuses)."""
    return tokenize.detect_encoding(io.BytesIO(data).readline)[0]


def decode(data: bytes) -> DecodedSource:
    """Decode file bytes the way Python would: BOM, then coding cookie, else UTF-8."""
    bom = data.startswith(b"\xef\xbb\xbf")
    try:
        encoding = encoding_of(data)
    except (SyntaxError, LookupError) as exc:
        raise SourceError(f"cannot determine encoding: {exc}") from None
    if encoding == "utf-8-sig":
        encoding = "utf-8"
    body = data[3:] if bom else data
    try:
        text = body.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise SourceError(f"cannot decode as {encoding}: {exc}") from None
    if "\x00" in text:
        raise SourceError("source contains a null byte")
    return DecodedSource(text=text, encoding=encoding, bom=bom, raw=data)


#: the last text ``line_starts`` was asked about and its answer: the pre-filter, the engine's
#: positions and the project index each ask about the same text object of the file analysed
_LAST_STARTS: Tuple[Optional[str], List[int]] = (None, [])
#: the last text ``know_lines`` was given and its lines
_LAST_LINES: Tuple[Optional[str], List[str]] = (None, [])


def line_starts(text: str) -> List[int]:
    """Offsets where each line begins, splitting on \\r\\n, \\r and \\n as the tokenizer does.
    The list is shared with the next caller asking about the same text object: read it only."""
    global _LAST_STARTS
    last, starts = _LAST_STARTS
    if last is text:
        return starts
    if "\r" not in text:  # the common case, without a loop in Python: 0, then each length + 1
        starts = list(accumulate(map(_PLUS_ONE, map(len, text.split("\n")[:-1])), initial=0))
    else:
        starts = [0]
        for m in _LINE_END.finditer(text):
            starts.append(m.end())
    _LAST_STARTS = (text, starts)
    return starts


def know_lines(text: str, lines: List[str]) -> None:
    """``text`` is ``"".join(lines)``, split by its reader (flake8 hands both): where every line
    but the last ends with its one ``\n`` (no ``\r`` anywhere, no empty last line), they are
    ``split_lines(text, keepends=True)`` and their lengths added up are ``line_starts(text)``:
    the next of each asked about ``text`` is given from them, without splitting ``text``
    again. Lines split otherwise (``str.splitlines`` at a form feed, say) are left alone."""
    global _LAST_STARTS, _LAST_LINES
    if not lines or not lines[-1] or "\r" in text:
        return
    body = lines[:-1]
    ends = lines[-1][-1:] == "\n"
    if text.count("\n") != len(body) + ends or (body and set(map(_LAST_CHAR, body)) != {"\n"}):
        return
    _LAST_STARTS = (text, list(accumulate(map(len, lines if ends else body), initial=0)))
    _LAST_LINES = (text, lines)


def line_numbers(starts: List[int], offsets: Iterable[int]) -> List[int]:
    """The 1-based lines (``starts`` from ``line_starts``) of ``offsets``, in their order."""
    return list(map(partial(bisect.bisect_right, starts), offsets))


def lines_of_sorted(text: str, offsets: Iterable[int]) -> List[int]:
    """``line_numbers`` of sorted ``offsets`` in ``text``, without its line starts: the line
    breaks before each offset counted on from the one before (``str.count``), where no ``\r``
    makes the count differ from the tokenizer's."""
    if "\r" in text:
        return line_numbers(line_starts(text), offsets)
    out: List[int] = []
    count = text.count
    line, last = 1, 0
    for offset in offsets:
        line += count("\n", last, offset)
        last = offset
        out.append(line)
    return out


def holds_words(text: str, words) -> bool:
    """Does ``text`` hold one of ``words``, pairs (word, its ``LazyPattern`` or None)? The word
    first (a substring test), then the pattern where there is one."""
    return any(word in text and (pattern is None or pattern.search(text) is not None)
               for word, pattern in words)


def occurrences(text: str, word: str) -> Iterator[int]:
    """The offsets where ``word`` occurs in ``text``, in order."""
    i = text.find(word)
    while i >= 0:
        yield i
        i = text.find(word, i + 1)


_WORD_CHAR = compile_pattern(r"\w")


def word_starts(text: str, word: str) -> List[int]:
    """The offsets where ``word`` occurs in ``text`` as a whole word (no word character right
    before or after it), in order: ``str.find``, with no pattern compiled per word."""
    out: List[int] = []
    find, is_word = text.find, _WORD_CHAR.match
    n = len(word)
    i = find(word)
    while i >= 0:
        if (i == 0 or is_word(text, i - 1) is None) and is_word(text, i + n) is None:
            out.append(i)
        i = find(word, i + 1)
    return out


def any_line_within(lines: List[int], first: int, last: int) -> bool:
    """Does one of the sorted ``lines`` lie in ``first..last`` (inclusive)?"""
    i = bisect.bisect_left(lines, first)
    return i < len(lines) and lines[i] <= last


def detect_newline(text: str) -> str:
    m = _LINE_END.search(text)
    return m.group(0) if m else "\n"


_LINES = LazyPattern(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def split_lines(text: str, keepends: bool = False) -> List[str]:
    """Lines as Python's tokenizer counts them: split on \\r\\n, \\r and \\n only.

    ``str.splitlines`` also splits on \\f, \\v, \\x1c-\\x1e, \\x85, \\u2028 and \\u2029, which
    would shift every later line number against flake8's and the tokenizer's.
    """
    if keepends and _LAST_LINES[0] is text:
        return list(_LAST_LINES[1])  # ``know_lines``
    if "\r" not in text:  # the common case: ``str.split`` at each \n, 3-6 times faster
        lines = text.split("\n")
        last = lines.pop()
        if keepends:
            lines = [line + "\n" for line in lines]
        if last:
            lines.append(last)
        return lines
    lines = _LINES.findall(text)
    if keepends:
        return lines
    return [line.rstrip("\r\n") for line in lines]


def tokens(text: str) -> Iterator[tokenize.TokenInfo]:
    """Python's tokens of ``text``, numbered in lines as ``split_lines`` (and flake8, which reads
    a file with universal newlines) number them, whatever the line endings: a line ending in a
    lone \r (an old Mac file) is given to the tokenizer ending in \n. Given as it is,
    ``io.StringIO`` reads such a file as one line and the tokenizer finds no line break in it:
    every token on line 1, a ``# noqa`` after a string over several lines not found. Rows and
    columns are those of ``text``; the generator raises what ``tokenize`` raises."""
    if "\r" not in text:
        return tokenize.generate_tokens(io.StringIO(text).readline)
    lines = iter([line.rstrip("\r\n") + "\n" if line.endswith(("\r", "\n")) else line
                  for line in split_lines(text, keepends=True)])
    return tokenize.generate_tokens(lambda: next(lines, ""))


#: CPython's own tokenizer refuses 200 levels of brackets ("too many nested parentheses"), so no
#: program Python accepts is lost by this limit. (It was first set for libcst 1.0.1's native
#: parser, which the linter no longer uses and which overflowed its stack, SIGSEGV with no
#: message, at about 1,290 nested brackets with an 8 MiB stack.)
MAX_NESTING = 200

_OPEN = frozenset("([{")
_CLOSE = frozenset(")]}")


def nesting_depth(text: str) -> int:
    """The deepest bracket nesting of ``text``, measured on the token stream (brackets inside
    strings and comments do not count). Where the tokenizer gives up on broken source, the rest
    is measured character by character (an upper bound for what any parser would see)."""
    depth = deepest = 0
    consumed = 0
    starts = line_starts(text)
    try:
        for tok in tokens(text):
            if tok.type == tokenize.OP:
                if tok.string in _OPEN:
                    depth += 1
                    if depth > deepest:
                        deepest = depth
                elif tok.string in _CLOSE and depth:
                    depth -= 1
            row = tok.end[0]
            if row <= len(starts):
                consumed = starts[row - 1] + tok.end[1]
    except (tokenize.TokenError, SyntaxError, ValueError):  # IndentationError is a SyntaxError
        for ch in text[consumed:]:
            if ch in _OPEN:
                depth += 1
                if depth > deepest:
                    deepest = depth
            elif ch in _CLOSE and depth:
                depth -= 1
    return deepest
