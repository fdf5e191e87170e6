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
from typing import Iterable, List, Optional, Sequence, Tuple

from .diagnostics import Diagnostic, Edit, selected
from .engine import DEFAULT_SETTINGS, LintError, Settings, analyze, filter_noqa, parse
from .source import line_starts

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
    """Fix ``source``; raises LintError if it does not parse. The result always parses.

    Only the diagnostics that ``check`` reports on ``source`` are fixed, and a fix run never
    introduces one it did not report: a later round fixes only diagnostics that trace back to
    the first round's (through the edits made since), and a round whose result shows a new
    diagnostic (``x.data`` -> ``x.detach()`` revealing a write through the alias, say) is
    retried fix by fix, keeping only the fixes that show none.
    """
    parse(source)  # a file that does not parse is never touched
    result = FixResult(source)

    def lint(text: str) -> List[Diagnostic]:
        return filter_noqa([d for d in analyze(text, settings, mask=False, filename=filename)
                            if selected(d.code, select, ignore)], text)

    current = source
    diags = lint(current)
    first = [(d.code,) + _span(current, d) for d in diags]
    rounds: List[List[Edit]] = []  # the edits of each applied round, in its own text's offsets
    refused: set = set()  # first-round diagnostics whose fix showed a new diagnostic

    def attempt(edits: List[Edit]):
        """(text, its diagnostics) after ``edits``, or None if it breaks or adds a diagnostic."""
        text = apply_edits(current, edits)
        try:
            parse(text)
        except LintError:  # a fix that breaks code is a bug; refuse it
            return None
        found = lint(text)
        trail = rounds + [sorted(set(edits))]
        if any(_origin(d, text, trail, first) is None for d in found):
            return None
        return text, found

    for _ in range(MAX_ROUNDS):
        chosen: List[Edit] = []
        groups = []
        for d in diags:
            if d.fix is None or not (d.fix.is_safe or unsafe):
                continue
            origin = _origin(d, current, rounds, first)
            if origin is None or origin in refused:
                continue
            if any(_conflicts(e, c) for e in d.fix.edits for c in chosen):
                continue
            chosen.extend(d.fix.edits)
            groups.append((d, origin))
        if not groups:
            break
        outcome = attempt(chosen)
        if outcome is None:  # one fix at a time: keep those that add nothing new
            kept, chosen = [], []
            for d, origin in groups:
                trial = attempt(chosen + list(d.fix.edits))
                if trial is None:
                    refused.add(origin)
                    continue
                kept.append((d, origin))
                chosen = chosen + list(d.fix.edits)
                outcome = trial
            if not kept:
                continue  # their diagnostics are refused now; the next round skips them
            groups = kept
        rounds.append(sorted(set(chosen)))
        current, diags = outcome
        result.applied.update(d.code for d, _ in groups)
    result.remaining = diags
    result.source = current
    return result


def _span(text: str, d: Diagnostic) -> Tuple[int, int]:
    starts = line_starts(text)

    def at(line: int, col: int) -> int:
        return (starts[line - 1] if 0 < line <= len(starts) else len(text)) + col

    return at(d.line, d.column), at(d.end_line, d.end_column)


def _back(pos: int, edits: List[Edit], low: bool) -> int:
    """Map an offset in the text after ``edits`` to the text before them; an offset inside a
    replacement maps to the replaced span's start (``low``) or end."""
    delta = 0
    for e in edits:
        new_start = e.start + delta
        new_end = new_start + len(e.text)
        if pos < new_start:
            break
        if pos < new_end or (pos == new_start and e.text == ""):
            return e.start if low else e.end
        delta += len(e.text) - (e.end - e.start)
    return pos - delta


def _origin(d: Diagnostic, text: str, rounds: List[List[Edit]], first) -> Optional[int]:
    """Index of the first-round diagnostic ``d`` (found in ``text``) traces back to, or None."""
    lo, hi = _span(text, d)
    for edits in reversed(rounds):
        lo, hi = _back(lo, edits, True), _back(hi, edits, False)
    for i, (code, start, end) in enumerate(first):
        if code == d.code and lo <= end and start <= hi:
            return i
    return None


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
