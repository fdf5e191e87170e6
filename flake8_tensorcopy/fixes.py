"""Applying fixes: by safety class, without overlap, to a fixed point, never to broken code.

Edits are character offsets into the decoded text, so everything outside them (comments,
quotes, CRLF, a BOM, the coding cookie, trailing whitespace) stays byte for byte.
"""
from __future__ import annotations

import os
import stat
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, List, Optional, Sequence

from .diagnostics import Diagnostic, Edit, selected
from .engine import DEFAULT_SETTINGS, LintError, Settings, analyze, filter_noqa, parse

MAX_ROUNDS = 8


@dataclass
class FixResult:
    source: str
    applied: Counter = field(default_factory=Counter)
    remaining: List[Diagnostic] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def _conflicts(a: Edit, b: Edit) -> bool:
    if a == b:
        return False
    if a.start == a.end and b.start == b.end:
        return a.start == b.start
    if a.start == a.end:
        return b.start < a.start < b.end
    if b.start == b.end:
        return a.start < b.start < a.end
    return a.start < b.end and b.start < a.end


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """Apply non-conflicting edits (identical ones once)."""
    out = []
    pos = 0
    for e in sorted(set(edits)):
        out.append(text[pos:e.start])
        out.append(e.text)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


def fix_source(source: str, *, unsafe: bool = False, select: Sequence[str] = ("TEN",),
               ignore: Sequence[str] = (), settings: Settings = DEFAULT_SETTINGS,
               filename: Optional[str] = None) -> FixResult:
    """Fix ``source``; raises LintError if it does not parse. The result always parses."""
    parse(source)  # a file that does not parse is never touched
    result = FixResult(source)
    current = source
    for _ in range(MAX_ROUNDS):
        diags = filter_noqa(
            [d for d in analyze(current, settings, mask=False, filename=filename)
             if selected(d.code, select, ignore)], current)
        chosen: List[Edit] = []
        codes: List[str] = []
        for d in diags:
            if d.fix is None or not (d.fix.is_safe or unsafe):
                continue
            if any(_conflicts(e, c) for e in d.fix.edits for c in chosen):
                continue
            chosen.extend(d.fix.edits)
            codes.append(d.code)
        if not chosen:
            result.remaining = diags
            break
        candidate = apply_edits(current, chosen)
        try:
            parse(candidate)
        except LintError:  # pragma: no cover - a fix that breaks code is a bug; refuse it
            result.remaining = diags
            break
        current = candidate
        result.applied.update(codes)
    else:
        result.remaining = filter_noqa(
            [d for d in analyze(current, settings, mask=False, filename=filename)
             if selected(d.code, select, ignore)], current)
    result.source = current
    return result


def atomic_write(path: str, data: bytes) -> None:
    """Write via a temporary file in the same directory and rename; keeps permissions."""
    real = os.path.realpath(path)
    directory = os.path.dirname(real) or "."
    mode: Optional[int] = None
    try:
        mode = stat.S_IMODE(os.stat(real).st_mode)
    except FileNotFoundError:
        pass
    fd, tmp = tempfile.mkstemp(prefix=".tensorcopy-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
