"""Helpers every output format shares: display paths and notebook cell positions."""
from __future__ import annotations

import functools
import os
from typing import Tuple


def rel(path: str) -> str:
    """``path`` relative to the working directory when it lies below it."""
    if path == "-":
        return path
    try:
        return _rel(path, os.getcwd())
    except (OSError, ValueError):
        return path


@functools.lru_cache(maxsize=4096)
def _rel(path: str, cwd: str) -> str:
    """``rel`` for one working directory (a file's many diagnostics ask the same)."""
    out = os.path.relpath(path, cwd)
    return path if out.startswith("..") else out


def cell_of(result, line: int) -> Tuple[int, int]:
    """(cell number, line in that cell) of a line of a notebook's joined source."""
    cell, first = result.cells[0]
    for c, f in result.cells:
        if f <= line:
            cell, first = c, f
    return cell, line - first + 1


def location(result, d) -> str:
    """``line:col`` (1-based column), or ``cell N:line:col`` in a notebook."""
    if result.cells:
        cell, line = cell_of(result, d.line)
        return f"cell {cell}:{line}:{d.column + 1}"
    return f"{d.line}:{d.column + 1}"
