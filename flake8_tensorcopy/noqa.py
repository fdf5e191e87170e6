"""``# noqa`` comments: which diagnostics a line silences. One parser for every front end (the
engine's callers, the language server's "disable" action, the runtime twin)."""
from __future__ import annotations

import re
from typing import List

from .diagnostics import Diagnostic
from .syntax.source import split_lines


NOQA = re.compile(
    r"#\s*noqa(?::\s?(?P<codes>[A-Z][A-Z0-9]*(?:[,\s]+[A-Z][A-Z0-9]*)*))?", re.IGNORECASE)


def silences(line: str, code: str) -> bool:
    """Does the physical ``line`` carry a ``# noqa`` that silences ``code``?"""
    m = NOQA.search(line) if "noqa" in line.lower() else None
    if m is None:
        return False
    codes = m.group("codes")
    if not codes:
        return True
    return any(code.startswith(c.upper()) for c in re.split(r"[,\s]+", codes) if c)


def filter_noqa(diags: List[Diagnostic], source: str) -> List[Diagnostic]:
    """Drop diagnostics silenced by ``# noqa`` / ``# noqa: TEN101`` on their reported line."""
    if "noqa" not in source.lower():
        return diags
    lines = split_lines(source)
    return [d for d in diags
            if not silences(lines[d.line - 1] if 0 < d.line <= len(lines) else "", d.code)]
