"""Parsing the source with ``ast``; the one error type for text that cannot be analysed."""
from __future__ import annotations

import ast

from .source import MAX_NESTING, nesting_depth


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
