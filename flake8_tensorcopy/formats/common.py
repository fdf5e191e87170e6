"""Helpers every output format shares: display paths and notebook cell positions."""
from __future__ import annotations

import functools
import os
import re
from typing import Any, Tuple

#: a surrogate code point: never valid in UTF-8, JSON text or SARIF (a file name that is not
#: UTF-8 decodes to some, as ``os.fsdecode`` does)
_SURROGATE = re.compile("[\ud800-\udfff]")


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


def valid(text: str) -> str:
    """``text`` with each surrogate (an undecodable byte of a file name, a lone half of a pair)
    replaced by U+FFFD, so that every report is valid UTF-8, JSON and SARIF."""
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


def valid_json(value: Any) -> Any:
    """``value`` (what ``json.dumps`` is given) with ``valid`` applied to every string in it."""
    if isinstance(value, str):
        return valid(value)
    if isinstance(value, dict):
        return {valid_json(k): valid_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [valid_json(v) for v in value]
    return value
