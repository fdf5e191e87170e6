"""Parsing the source with ``ast``; the one error type for text that cannot be analysed; the trees
of the files last linted, which the project index reads instead of parsing them again."""
from __future__ import annotations

import ast
import threading
from collections import OrderedDict
from typing import Optional, Tuple

from .source import MAX_NESTING, nesting_depth

#: how many of the files last linted keep their text and tree here (``hold_tree``)
HELD_TREES = 4
_held: "OrderedDict[str, Tuple[str, ast.Module]]" = OrderedDict()
_held_lock = threading.Lock()  # the language server lints from more than one thread


class LintError(Exception):
    """The source cannot be analysed (does not parse, or is too deep to walk)."""


class TooDeep(LintError):
    """Brackets nested deeper than Python's parser accepts."""


def check_nesting(source: str) -> None:
    """Raise TooDeep for text nested deeper than MAX_NESTING brackets."""
    if sum(source.count(c) for c in "([{") <= MAX_NESTING:
        return  # cannot be deeper than the number of opening brackets
    depth = nesting_depth(source)
    if depth > MAX_NESTING:
        raise TooDeep(f"too deeply nested: {depth} levels of brackets (the limit is {MAX_NESTING})")


def python_ast(source: str) -> ast.Module:
    """``ast.parse(source)``; LintError (too deeply nested, or the syntax error) if it fails."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        check_nesting(source)
        if isinstance(exc, SyntaxError):
            raise LintError(f"syntax error at {exc.lineno}:{(exc.offset or 1) - 1}: {exc.msg}") \
                from None
        raise LintError(f"cannot parse: {type(exc).__name__}: {exc}".splitlines()[0]) from None


def hold_tree(path: str, text: str, tree: ast.Module) -> None:
    """Keep the text and ``ast`` tree of a file just linted (``path`` absolute), the last
    ``HELD_TREES`` of them: the project index reads that module from them (``held_tree``)
    instead of parsing it again when a file linted next imports it (on the dense corpus, 26 of
    the index's 149 parses)."""
    with _held_lock:
        _held[path] = (text, tree)
        _held.move_to_end(path)
        while len(_held) > HELD_TREES:
            _held.popitem(last=False)


def held_tree(path: str, data: bytes) -> Optional[ast.Module]:
    """The tree held for ``path`` when its text is exactly ``data`` (the bytes on disk now,
    read as UTF-8), else None: parse ``data``."""
    got = _held.get(path)
    if got is None:
        return None
    try:
        same = got[0].encode("utf-8") == data
    except UnicodeError:
        return None
    return got[1] if same else None
