"""Jupyter notebooks: lint the code cells as one program, report cell and line."""
from __future__ import annotations

import json
import re

_MAGIC = re.compile(r"^\s*[%!]")


def notebook_source(data: str):
    """(joined source, [(cell number, first line)]) for the code cells; magics become blanks.

    Raises ValueError (one line) for anything that is not a well-formed notebook."""
    nb = json.loads(data)
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(cells, list):
        raise ValueError("not a notebook: no cells")
    sources = []
    numbers = []
    for number, cell in enumerate(cells, 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        src = cell.get("source", "")
        if isinstance(src, list) and all(isinstance(part, str) for part in src):
            src = "".join(src)
        if not isinstance(src, str):  # nbformat: a string or a list of strings, nothing else
            raise ValueError(f"cell {number}: \"source\" is not a string or a list of strings")
        numbers.append(number)
        sources.append(src)
    joined, firsts = join_cells(sources)
    return joined, list(zip(numbers, firsts))


def join_cells(sources):
    """(joined source, [first line of each cell]) for code cells' texts; magics become blanks.

    The one joining rule for notebook files (the CLI) and open notebooks (the language server).
    """
    parts = []
    firsts = []
    line = 1
    for src in sources:
        lines = ["" if _MAGIC.match(l) else l for l in src.split("\n")]
        text = "\n".join(lines)
        if not text.endswith("\n"):
            text += "\n"
        firsts.append(line)
        parts.append(text)
        line += text.count("\n")
    return "".join(parts), firsts
