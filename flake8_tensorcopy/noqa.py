"""``# noqa`` comments, read exactly as flake8 reads them: one parser for every front end (the
door, the language server's "disable" action, the runtime twin).

flake8's rules, measured against flake8 7 on the same files (``tests/test_noqa.py``):
- the comment is ``# noqa`` with exactly one space after ``#``, in any case (``# NOQA``);
- ``:`` right after ``noqa``, at most one blank, then codes: letters followed by digits
  (``TEN101``), separated by commas or blanks; what follows the last code is ignored
  (``# noqa: TEN101 because x``);
- when nothing after ``noqa`` reads as codes (``# noqa``, ``# noqa: TEN``, ``# noqa:because``), it
  silences every code on the line;
- a code is silenced when it equals, or starts with, one of the listed codes, case sensitive
  (``# noqa:ten101`` silences nothing);
- the line searched is the reported line, widened to every physical line of the same token run
  (a string over several lines, a backslash continuation): a ``# noqa`` at the end of a
  statement continued by ``\\`` covers its first line too; lines are counted as the tokenizer
  counts them whatever the line endings (``\\r`` alone included);
- a physical line that starts (after blanks) with ``# flake8: noqa`` (or ``# flake8=noqa``, any
  case, codes after it or not) makes flake8 skip the whole file (``skips_file``); after code on
  the same line it is no ``# noqa`` at all.
"""
from __future__ import annotations

import re
import tokenize
from typing import Dict, List, Optional, Sequence

from .diagnostics import Diagnostic
from .syntax.source import split_lines, tokens
from .syntax.patterns import compile_pattern

NOQA = compile_pattern(r"# noqa(?::\s?(?P<codes>(?:[A-Z]+[0-9]+[,\s]*)+))?", re.IGNORECASE)
_SEPARATORS = compile_pattern(r"[,\s]")


#: flake8's ``NOQA_FILE``, matched at the start of each physical line
FILE_NOQA = compile_pattern(r"\s*# flake8[:=]\s*noqa", re.IGNORECASE)
_FLAKE8 = compile_pattern("flake8", re.IGNORECASE)


def skips_file(source: str) -> bool:
    """Does flake8 skip the whole file (a line that is a ``# flake8: noqa`` comment)?"""
    return _FLAKE8.search(source) is not None and any(
        FILE_NOQA.match(line) for line in split_lines(source))


def codes_of(match: "re.Match[str]") -> Optional[List[str]]:
    """The codes a ``NOQA`` match lists; None for a bare ``# noqa`` (every code)."""
    codes = match.group("codes")
    if codes is None:
        return None
    return [c.strip() for c in _SEPARATORS.split(codes) if c.strip()]


def silences(line: str, code: str) -> bool:
    """Does ``line`` (the text flake8 searches for the reported line) silence ``code``?"""
    m = NOQA.search(line) if "noqa" in line.lower() else None
    if m is None:
        return False
    codes = codes_of(m)
    return codes is None or code in codes or code.startswith(tuple(codes))


def noqa_lines(source: str) -> Dict[int, str]:
    """1-based line -> the text flake8 searches for a diagnostic on that line: the physical
    lines from the first to the last of the tokens between two line breaks, joined. Lines the
    tokenizer cannot reach (the text does not tokenize) keep their own text."""
    lines = split_lines(source, keepends=True)
    out: Dict[int, str] = {}
    lo, hi = len(lines) + 2, -1
    try:
        for tok in tokens(source):
            if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            lo, hi = min(lo, tok.start[0]), max(hi, tok.end[0])
            if tok.type in (tokenize.NL, tokenize.NEWLINE):
                joined = "".join(lines[lo - 1:hi])
                for n in range(lo, hi + 1):
                    out[n] = joined
                lo, hi = len(lines) + 2, -1
    except (tokenize.TokenError, SyntaxError):
        pass
    return out


def filter_noqa(diags: Sequence[Diagnostic], source: str) -> List[Diagnostic]:
    """Drop the diagnostics a ``# noqa`` silences, as flake8 would (a file flake8 skips is not
    analysed at all: ``skips_file``, asked first by ``lint.diagnose``)."""
    if not diags or "noqa" not in source.lower():
        return list(diags)
    lines = split_lines(source)
    searched = noqa_lines(source)
    return [d for d in diags if not silences(
        searched.get(d.line) or (lines[d.line - 1] if 0 < d.line <= len(lines) else ""), d.code)]
