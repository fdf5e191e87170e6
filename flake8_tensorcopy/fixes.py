"""Applying fixes: by safety class, without overlap, to a fixed point, never to broken code.

Edits are character offsets into the decoded text, so everything outside them (comments,
quotes, CRLF, a BOM, the coding cookie, trailing whitespace) stays byte for byte.
"""
from __future__ import annotations

import bisect
import gc
from collections import Counter
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Set, Tuple

from .diagnostics import NOT_ANALYSED, Diagnostic, Edit
from .edits import EditSet, apply_edits, sorted_edits
from .config import Config
from .lint import diagnose
from .syntax.parse import LintError, python_ast
from .syntax.source import line_starts

MAX_ROUNDS = 8
_DEFAULT_CONFIG = Config()


@dataclass
class FixResult:
    source: str
    applied: Counter = field(default_factory=Counter)
    remaining: List[Diagnostic] = field(default_factory=list)
    #: diagnostics whose fix was not applied because the fixed code would not parse
    refused: List[Diagnostic] = field(default_factory=list)
    #: the diagnostics whose fixes were applied, each round's in that round's text (with
    #: ``rounds=1``: all of them in ``source``'s offsets, see ``fix_candidates``)
    fixed: List[Diagnostic] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def _parses(text: str) -> bool:
    try:
        python_ast(text)
    except LintError:
        return False
    return True


def fix_source(source: str, config: Optional[Config] = None, path: Optional[str] = None, *,
               unsafe: bool = False, select: Optional[Sequence[str]] = None,
               ignore: Optional[Sequence[str]] = None, rounds: int = MAX_ROUNDS) -> FixResult:
    """Fix ``source``; raises LintError if it does not parse. The result always parses.

    Only the diagnostics that ``check`` reports on ``source`` are fixed, and a fix run never
    introduces one it did not report: a later round fixes only diagnostics that trace back to
    the first round's (through the edits made since), and a round whose result shows a new
    diagnostic (``x.data`` -> ``x.detach()`` revealing a write through the alias, say) or does
    not parse is retried fix by fix, keeping only the fixes that do neither. A fix dropped
    because its code would not parse is listed in ``FixResult.refused``.
    """
    # like the engine's walk, a fix run allocates many acyclic objects (trees, diagnostics,
    # edits) and holds thousands of them at once: the cyclic collector would traverse them all
    # again at every pass (a file of 16,000 fixes: 6.9 s with it, 3.3 s without). Paused for
    # this run only, restored as it was.
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _fix_source(source, config, path, unsafe, select, ignore, rounds)
    finally:
        if paused:
            gc.enable()


def _fix_source(source: str, config: Optional[Config], path: Optional[str], unsafe: bool,
                select: Optional[Sequence[str]], ignore: Optional[Sequence[str]],
                max_rounds: int = MAX_ROUNDS) -> FixResult:
    python_ast(source)  # a file that does not parse is never touched
    result = FixResult(source)

    cfg = config if config is not None else _DEFAULT_CONFIG

    def lint(text: str) -> List[Diagnostic]:
        return diagnose(text, path, cfg, for_fix=True, select=select, ignore=ignore)

    current = source
    diags = lint(current)
    for d in diags:
        if d.code == NOT_ANALYSED:  # valid Python that could not be walked: never touched
            raise LintError(d.message.split(": ", 1)[-1])
    lines = _Lines(current)
    first = _Origins([(d.code,) + lines.span(d) for d in diags])
    rounds: List[_Round] = []  # the edits of each applied round, in its own text's offsets
    refused: Set[int] = set()  # first-round diagnostics whose fix breaks or adds a diagnostic
    broken: Set[int] = set()  # ... of those, the ones whose fixed code would not parse

    def attempt(edits: List[Edit]):
        """(text, its diagnostics) after ``edits``; "broken" if it does not parse; None if it
        shows a diagnostic that does not trace back to the first round."""
        text = apply_edits(current, edits)
        if not _parses(text):
            return "broken"
        found = lint(text)
        trail = rounds + [_Round(edits)]
        at = _Lines(text)
        if any(_origin(d, at, trail, first) is None for d in found):
            return None
        return text, found

    for _ in range(max_rounds):
        chosen: List[Edit] = []
        taken = EditSet()  # ``chosen``, sorted: a fix is compared with its neighbours only
        groups = []
        lines = _Lines(current)
        for d in diags:
            if d.fix is None or not (d.fix.is_safe or unsafe):
                continue
            origin = _origin(d, lines, rounds, first)
            if origin is None or origin in refused:
                continue
            if any(taken.conflicts(e) for e in d.fix.edits):
                continue
            chosen.extend(d.fix.edits)
            for e in d.fix.edits:
                taken.add(e)
            groups.append((d, origin))
        if not groups:
            break
        outcome = attempt(chosen)
        if not isinstance(outcome, tuple):  # one fix at a time: keep those that do no harm
            kept, chosen = [], []
            for d, origin in groups:
                trial = attempt(chosen + list(d.fix.edits))
                if not isinstance(trial, tuple):
                    refused.add(origin)
                    if trial == "broken":
                        broken.add(origin)
                    continue
                kept.append((d, origin))
                chosen = chosen + list(d.fix.edits)
                outcome = trial
            if not kept:
                continue  # their diagnostics are refused now; the next round skips them
            groups = kept
        rounds.append(_Round(chosen))
        current, diags = outcome
        result.applied.update(d.code for d, _ in groups)
        result.fixed.extend(d for d, _ in groups)
    result.remaining = diags
    lines = _Lines(current)
    result.refused = [d for d in diags if d.fix is not None
                      and _origin(d, lines, rounds, first) in broken]
    result.source = current
    return result


def fix_candidates(source: str, config: Optional[Config] = None, path: Optional[str] = None, *,
                   unsafe: bool = False, select: Optional[Sequence[str]] = None,
                   ignore: Optional[Sequence[str]] = None) -> List[Diagnostic]:
    """The fixes one round of ``fix_source`` applies to ``source`` (in its offsets): those of
    the diagnostics ``check`` reports, not overlapping, that together parse and show no new
    diagnostic. Each may be applied alone or with any others of them (``apply_fixes``): what
    ``fix --prove`` tries against the user's tests. Raises LintError as ``fix_source``."""
    return fix_source(source, config, path, unsafe=unsafe, select=select, ignore=ignore,
                      rounds=1).fixed


def apply_fixes(source: str, fixes: Sequence[Diagnostic]) -> str:
    """``source`` with the fixes of ``fixes`` (from ``fix_candidates`` on it) applied; raises
    LintError if the result would not parse (it is never returned then)."""
    text = apply_edits(source, [e for d in fixes if d.fix is not None for e in d.fix.edits])
    python_ast(text)
    return text


class _Lines:
    """A text and where its lines start (worked out once, not once per diagnostic)."""

    __slots__ = ("text", "starts")

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)

    def span(self, d: Diagnostic) -> Tuple[int, int]:
        starts, size = self.starts, len(self.text)

        def at(line: int, col: int) -> int:
            return (starts[line - 1] if 0 < line <= len(starts) else size) + col

        return at(d.line, d.column), at(d.end_line, d.end_column)


class _Round:
    """The edits of one applied round (sorted, each once), with where each lands in the text
    after the round, for mapping offsets back by bisection."""

    __slots__ = ("edits", "new_starts", "new_ends", "deltas", "disjoint")

    def __init__(self, edits) -> None:
        self.edits: List[Edit] = sorted_edits(edits)
        self.new_starts: List[int] = []
        self.new_ends: List[int] = []
        self.deltas: List[int] = []  # the shift before each edit, then after the last
        delta, prev_end, self.disjoint = 0, -1, True
        for e in self.edits:
            if e.start < prev_end:
                self.disjoint = False  # overlapping edits: mapped back one by one (``_back``)
            prev_end = e.end
            self.deltas.append(delta)
            self.new_starts.append(e.start + delta)
            self.new_ends.append(e.start + delta + len(e.text))
            delta += len(e.text) - (e.end - e.start)
        self.deltas.append(delta)

    def back(self, pos: int, low: bool) -> int:
        """``_back(pos, self.edits, low)``: the replacements' new spans are sorted and disjoint
        (the edits do not overlap), so the one that holds ``pos`` is found by bisection: the
        last one starting before it, if ``pos`` lies inside it, else the first starting at it."""
        if not self.disjoint:
            return _back(pos, self.edits, low)
        starts = self.new_starts
        j = bisect.bisect_right(starts, pos)
        i = bisect.bisect_left(starts, pos, 0, j)
        if i > 0 and pos < self.new_ends[i - 1]:
            e = self.edits[i - 1]
        elif i < j:
            e = self.edits[i]
        else:
            return pos - self.deltas[j]
        return e.start if low else e.end


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


class _Origins:
    """The first round's diagnostics as ``(code, start, end)``, indexed by code and start: the
    first one (in their order) of a code whose span meets a given span is found by bisection,
    looking back only while an earlier one may still reach it."""

    def __init__(self, first: List[Tuple[str, int, int]]) -> None:
        self.first = first
        by_code: dict = {}
        for i, (code, start, end) in enumerate(first):
            by_code.setdefault(code, []).append((start, i, end))
        self._index = {}
        for code, rows in by_code.items():
            rows.sort()
            reach, top = [], -1
            for _, _, end in rows:
                top = max(top, end)
                reach.append(top)  # the furthest end of this row and every row before it
            self._index[code] = ([r[0] for r in rows], rows, reach)

    def find(self, code: str, lo: int, hi: int) -> Optional[int]:
        got = self._index.get(code)
        if got is None:
            return None
        starts, rows, reach = got
        best = None
        k = bisect.bisect_right(starts, hi) - 1
        while k >= 0 and reach[k] >= lo:
            _, i, end = rows[k]
            if end >= lo and (best is None or i < best):
                best = i
            k -= 1
        return best


def _origin(d: Diagnostic, lines: _Lines, rounds: List[_Round], first: _Origins) -> Optional[int]:
    """Index of the first-round diagnostic ``d`` (found in ``lines.text``) traces back to, or
    None."""
    lo, hi = lines.span(d)
    for r in reversed(rounds):
        lo, hi = r.back(lo, True), r.back(hi, False)
    return first.find(d.code, lo, hi)
