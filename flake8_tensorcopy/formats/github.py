"""``github``: GitHub Actions workflow commands (``::warning file=...``), one per diagnostic."""
from __future__ import annotations

from typing import List

from .common import rel, valid


def _escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def render(results: List) -> str:
    out = []
    for r in results:
        for d in r.diagnostics:
            out.append(
                f"::warning file={_escape(rel(r.path), True)},line={d.line},col={d.column + 1},"
                f"endLine={d.end_line},endColumn={d.end_column + 1},"
                f"title={_escape(d.code, True)}::{_escape(d.code + ' ' + d.message)}")
    return valid("\n".join(out))
