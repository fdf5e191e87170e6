"""``text`` and ``concise``: one line per diagnostic, ``path:line:col: CODE message``."""
from __future__ import annotations

from typing import List

from .common import location, rel, valid


def lines(results: List, concise: bool = False) -> List[str]:
    out = []
    for r in results:
        for d in r.diagnostics:
            fixable = ""
            if not concise and d.fix is not None and not r.cells:  # notebooks are not fixed
                fixable = " [*]" if d.fix.is_safe else " [unsafe fix]"
            out.append(valid(f"{rel(r.path)}:{location(r, d)}: {d.code} {d.message}{fixable}"))
    return out


def render(results: List, concise: bool = False) -> str:
    return "\n".join(lines(results, concise))
