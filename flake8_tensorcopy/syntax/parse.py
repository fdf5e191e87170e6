"""Parsing the source with ``ast``; the one error type for text that cannot be analysed."""
from __future__ import annotations

import ast
import gc

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
    """``ast.parse(source)``; LintError (too deeply nested, or the syntax error) if it fails.

    The cyclic collector is paused while the parser makes the tree: its nodes hold no cycle,
    and each collection the allocations set off would walk every object the process keeps
    alive (a run's project index with its modules' trees) for nothing. Parsing the 20 files of
    a generated project at 4,000 cross-file sites took 0.76 s against 0.19 s for the index's
    reading of the same files, made while an analysis had the collector paused: the cost grew
    with the square of the project (``benchmarks/scaling.py``)."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        check_nesting(source)
        if isinstance(exc, SyntaxError):
            raise LintError(f"syntax error at {exc.lineno}:{(exc.offset or 1) - 1}: {exc.msg}") \
                from None
        raise LintError(f"cannot parse: {type(exc).__name__}: {exc}".splitlines()[0]) from None
    finally:
        if paused:
            gc.enable()
