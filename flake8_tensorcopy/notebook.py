"""Jupyter notebooks: lint the code cells as one program, report cell and line.

IPython syntax is masked line by line, keeping every line where it is, as IPython itself reads
it: an escape (``%magic``, ``!shell``, ``?name``, ``name?``, ``x = !cmd``, ``x = %magic``) only
at the start of a logical line (not inside brackets, a string, or after a backslash), its
backslash continuation lines with it; a cell magic (``%%bash``) hides its whole cell unless it
is one whose body is Python (``%%time``, ``%%capture``...), which hides only its first line.
"""
from __future__ import annotations

import json
import re
from typing import List

#: cell magics whose body is Python: the body is linted
PYTHON_CELL_MAGICS = frozenset({"capture", "debug", "prun", "pypy", "python", "python3", "time",
                                "timeit"})
CELL_TYPES = ("code", "markdown", "raw")

_ESCAPE = re.compile(r"[ \t]*(?:[%!?]|[,;/](?=\w))")  # %magic !shell ?help ,autocall
_ASSIGNED = re.compile(r"([ \t]*)([\w.]+(?:[ \t]*,[ \t]*[\w.]+)*)[ \t]*=[ \t]*[%!]")
_HELP_AFTER = re.compile(r"[ \t]*[\w.*\[\]()]+\?\??[ \t]*\Z")
_CELL_MAGIC = re.compile(r"[ \t]*%%(\w*)")


def notebook_source(data: str):
    """(joined source, [(cell number, first line)]) for the code cells; IPython syntax masked.

    Raises ValueError (one line) for anything that is not a well-formed notebook: no cell list,
    a cell that is not an object, has no ``cell_type`` or ``source``, or has one of the wrong
    type (nbformat 4 requires both in every cell)."""
    nb = json.loads(data)
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(cells, list):
        raise ValueError("not a notebook: no cells")
    sources = []
    numbers = []
    for number, cell in enumerate(cells, 1):
        if not isinstance(cell, dict):
            raise ValueError(f"cell {number} is not an object")
        kind = cell.get("cell_type")
        if kind is None:
            raise ValueError(f'cell {number} has no "cell_type"')
        if kind not in CELL_TYPES:
            raise ValueError(f'cell {number}: "cell_type" is {json.dumps(kind)[:40]}, not one '
                             'of "code", "markdown", "raw"')
        if "source" not in cell:
            raise ValueError(f'cell {number} has no "source"')
        src = cell["source"]
        if isinstance(src, list) and all(isinstance(part, str) for part in src):
            src = "".join(src)
        if not isinstance(src, str):  # nbformat: a string or a list of strings, nothing else
            raise ValueError(f"cell {number}: \"source\" is not a string or a list of strings")
        if kind == "code":
            numbers.append(number)
            sources.append(src)
    joined, firsts = join_cells(sources)
    return joined, list(zip(numbers, firsts))


def join_cells(sources):
    """(joined source, [first line of each cell]) for code cells' texts; IPython syntax masked.

    The one joining rule for notebook files (the CLI) and open notebooks (the language server).
    """
    parts = []
    firsts = []
    line = 1
    for src in sources:
        text = "\n".join(mask_ipython(src.split("\n")))
        if not text.endswith("\n"):
            text += "\n"
        firsts.append(line)
        parts.append(text)
        line += text.count("\n")
    return "".join(parts), firsts


def mask_ipython(lines: List[str]) -> List[str]:
    """The cell's lines with IPython syntax replaced by Python that binds what it binds (``x =
    !ls`` becomes ``x = None``: not a tensor) and does nothing else; as many lines."""
    magic = _CELL_MAGIC.match(lines[0]) if lines else None
    if magic:
        if magic.group(1) not in PYTHON_CELL_MAGICS:
            return ["" for _ in lines]  # another language (%%bash, %%html...): nothing to lint
        lines = [""] + lines[1:]
    out = []
    state = _State()
    continued = False  # the line before was a masked escape ending with a backslash
    for text in lines:
        if continued or (not state.continuing() and _is_escape(text)):
            out.append("" if continued else _replacement(text))
            continued = text.rstrip().endswith("\\")
            continue
        state.feed(text)
        out.append(text)
    return out


def _is_escape(text: str) -> bool:
    if _ESCAPE.match(text) or _ASSIGNED.match(text):
        return True
    return "#" not in text and "'" not in text and '"' not in text and bool(
        _HELP_AFTER.match(text))


def _replacement(text: str) -> str:
    """The Python a masked line becomes: its assignment's targets bound to None, else ``pass``
    (a block whose only statement was a magic stays a block), at the same indentation."""
    assigned = _ASSIGNED.match(text)
    if assigned:
        return f"{assigned.group(1)}{assigned.group(2)} = None"
    indent = text[:len(text) - len(text.lstrip(" \t"))]
    return f"{indent}pass"


class _State:
    """Enough of Python's lexer to know whether the next line continues a logical line: open
    brackets, an unfinished triple-quoted string, a trailing backslash."""

    def __init__(self) -> None:
        self.depth = 0
        self.quote = ""  # the open triple quote, if any
        self.backslash = False

    def continuing(self) -> bool:
        return bool(self.depth or self.quote or self.backslash)

    def feed(self, line: str) -> None:
        i, n = 0, len(line)
        self.backslash = False
        while i < n:
            if self.quote:
                end = _string_end(line, i, self.quote)
                if end < 0:
                    return
                i, self.quote = end, ""
                continue
            c = line[i]
            if c == "#":
                return
            if c in "([{":
                self.depth += 1
            elif c in ")]}":
                self.depth = max(0, self.depth - 1)
            elif c == "\\" and i == n - 1:
                self.backslash = True
            elif c in "'\"":
                triple = line.startswith(c * 3, i)
                q = c * 3 if triple else c
                end = _string_end(line, i + len(q), q)
                if end < 0:
                    if triple:
                        self.quote = q
                    return  # an unterminated one-line string: a syntax error anyway
                i = end
                continue
            i += 1


def _string_end(line: str, i: int, quote: str) -> int:
    """Index just past ``quote`` closing a string from ``i`` on (escapes skipped), or -1."""
    n = len(line)
    while i < n:
        if line[i] == "\\":
            i += 2
            continue
        if line.startswith(quote, i):
            return i + len(quote)
        i += 1
    return -1
