"""The editor-independent half of the language server (no pygls here).

- ``Configs``: ``[tool.tensorcopy]`` of each file's own project, re-read when pyproject.toml
  changes (stamped by mtime and size, so a reload never depends on the client's file watcher).
- ``lint_document``: the one lint step (``lint.lint_text``) with exclude / per-file-ignores, and
  ``fixable``: the same diagnostics with the fixer's view of their fixes (``lint.diagnose`` with
  ``for_fix``, exactly as ``fixes.fix_source`` sees them, the project index included).
- ``TextIndex``: character offsets <-> LSP positions (UTF-16 by default, UTF-8/UTF-32 if agreed).
- ``noqa_edit``: ``# noqa: TENxxx`` for a line, merged into an existing ``# noqa:`` comment.
- ``fix_all``: the safe fixes of a whole file, by ``fixes.fix_source`` (what ``tensorcopy fix``
  writes), as one minimal replacement.
"""
from __future__ import annotations

import ast
import bisect
import os
import tokenize
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Set, Tuple

from ..config import Config, ConfigError, find_pyproject, load
from ..diagnostics import Diagnostic, Edit, replaced
from ..files import excluded
from ..fixes import apply_edits, fix_source
from ..lint import FileResult, LintError, diagnose, lint_text
from ..noqa import NOQA, silences
from ..syntax.source import line_starts, tokens

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


# --------------------------------------------------------------------------- configuration
class Configs:
    """``[tool.tensorcopy]`` per project, cached by pyproject.toml path and (mtime, size)."""

    def __init__(self, fallback_root: Optional[str] = None) -> None:
        self.fallback_root = fallback_root
        self._cache: Dict[str, Tuple[tuple, Config, Optional[str]]] = {}

    def clear(self) -> None:
        self._cache.clear()

    def for_path(self, path: Optional[str]) -> Tuple[Config, Optional[str]]:
        """(Config, error phrase or None). A broken pyproject.toml gives the defaults and the
        error (the caller tells the user once)."""
        start = path if path else (self.fallback_root or os.getcwd())
        found = find_pyproject(os.path.dirname(start) if path else start)
        if not found:
            return Config(), None
        try:
            st = os.stat(found)
            stamp: tuple = (st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = ()
        hit = self._cache.get(found)
        if hit and hit[0] == stamp:
            return hit[1], hit[2]
        try:
            cfg, error = load(found), None
        except ConfigError as exc:
            cfg, error = Config(path=found), str(exc)
        self._cache[found] = (stamp, cfg, error)
        return cfg, error


def is_excluded(path: Optional[str], cfg: Config) -> bool:
    return bool(path and cfg.path and cfg.exclude and excluded(path, cfg.root, cfg.exclude))


# --------------------------------------------------------------------------- linting
BOM = "\ufeff"


def split_bom(text: str) -> Tuple[str, int]:
    """(``text`` without a leading U+FEFF, how many characters were cut). An editor buffer read
    from a file saved with a UTF-8 BOM may keep it as its first character; Python (and the
    CLI, which decodes the bytes) reads the file without it. Positions in the buffer count it."""
    return (text[1:], 1) if text.startswith(BOM) else (text, 0)


def shifted(d: Diagnostic, by: int) -> Diagnostic:
    """``d`` (found in a text without its first ``by`` characters, all on line 1) placed in the
    whole text."""
    if not by:
        return d
    fix = d.fix
    if fix is not None:
        fix = replaced(fix, edits=tuple(Edit(e.start + by, e.end + by, e.text) for e in fix.edits))
    return replaced(d, column=d.column + (by if d.line == 1 else 0),
                    end_column=d.end_column + (by if d.end_line == 1 else 0), fix=fix)


def lint_document(path: Optional[str], text: str, cfg: Config) -> FileResult:
    """Diagnostics of an editor buffer; a buffer that does not parse gives none (syntax_error
    set), an excluded file none. Never raises for any text."""
    result = FileResult(path or "<untitled>")
    if is_excluded(path, cfg):
        return result
    body, cut = split_bom(text)
    try:
        lint_text(result, body, cfg, cfg.select, cfg.ignore)
    except (RecursionError, MemoryError, LintError) as exc:
        result.diagnostics = []
        result.syntax_error = f"cannot analyse: {type(exc).__name__}"
        return result
    result.diagnostics = [shifted(d, cut) for d in result.diagnostics]
    return result


def fixable(path: Optional[str], text: str, cfg: Config) -> List[Diagnostic]:
    """The diagnostics of ``text`` with their fixes as the fixer computes them (unmasked parse,
    selection, per-file-ignores and noqa as ``tensorcopy fix``)."""
    if is_excluded(path, cfg):
        return []
    body, cut = split_bom(text)
    try:
        return [shifted(d, cut) for d in diagnose(body, path, cfg, for_fix=True)]
    except (LintError, RecursionError, MemoryError):
        return []


def parses(text: str) -> bool:
    try:
        ast.parse(split_bom(text)[0])
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def checked_fix(text: str, d: Diagnostic) -> Optional[str]:
    """``text`` with ``d``'s fix applied, if that still parses (the fixer's guarantee)."""
    if d.fix is None or not d.fix.edits:
        return None
    fixed = apply_edits(text, d.fix.edits)
    return fixed if parses(fixed) else None


def fix_all(path: Optional[str], text: str, cfg: Config) -> Optional[Edit]:
    """The safe fixes of the whole file exactly as ``tensorcopy fix`` applies them, as one
    replacement of the changed span (None when nothing changes or the text does not parse)."""
    if is_excluded(path, cfg):
        return None
    body, cut = split_bom(text)
    try:
        fixed = fix_source(body, cfg, path, unsafe=False).source
    except (LintError, RecursionError, MemoryError):
        return None
    edit = minimal_edit(body, fixed)
    return edit if edit is None else Edit(edit.start + cut, edit.end + cut, edit.text)


class DocumentView:
    """What code actions need of one linted text (a document, or a notebook's joined cells),
    each part computed at most once and only when first asked for: the fixer's diagnostics
    (``fixable``), positions, and the line layout the "disable" action reads. Code actions
    keep one per document, so the light bulb asked on every cursor move costs a lookup."""

    def __init__(self, path: Optional[str], text: str, cfg: Config) -> None:
        self.path, self.text, self.cfg = path, text, cfg
        self.index = TextIndex(text)
        self._diagnostics: Optional[List[Diagnostic]] = None
        self._layout: Optional[Tuple[Optional[LineLayout]]] = None

    def diagnostics(self) -> List[Diagnostic]:
        if self._diagnostics is None:
            self._diagnostics = fixable(self.path, self.text, self.cfg)
        return self._diagnostics

    def has_safe_fix(self) -> bool:
        return any(d.fix is not None and d.fix.is_safe for d in self.diagnostics())

    def noqa_edit(self, line: int, code: str) -> Optional[Edit]:
        if split_bom(self.text)[1]:
            return noqa_edit(self.text, line, code)
        if self._layout is None:
            self._layout = (line_layout(self.text, self.index),)
        if self._layout[0] is None:
            return None
        return noqa_edit(self.text, line, code, self._layout[0], self.index)

    def warm(self) -> "DocumentView":
        """Compute every part now (in the background, before any code action asks)."""
        if self.diagnostics():
            self.noqa_edit(1, "TEN000")
        return self


def minimal_edit(old: str, new: str) -> Optional[Edit]:
    """One Edit turning ``old`` into ``new``: the span between common prefix and suffix."""
    if old == new:
        return None
    n = min(len(old), len(new))
    p = 0
    while p < n and old[p] == new[p]:
        p += 1
    s = 0
    while s < n - p and old[len(old) - 1 - s] == new[len(new) - 1 - s]:
        s += 1
    return Edit(p, len(old) - s, new[p:len(new) - s])


# --------------------------------------------------------------------------- noqa
@dataclass
class LineLayout:
    """What one tokenization of a text says about its lines, for ``noqa_edit``.

    ``runs``: 1-based line -> (first, last) line of its token run, the lines flake8 searches
    together for a ``# noqa`` reported on that line (a string over several lines, a backslash
    continuation); ``clean``: lines that end with a line break token, where a comment may be
    appended; ``comments``: (start, end) offsets of the comments."""

    runs: Dict[int, Tuple[int, int]]
    clean: Set[int]
    comments: List[Tuple[int, int]]


def line_layout(text: str, index: Optional["TextIndex"] = None) -> Optional[LineLayout]:
    """The LineLayout of ``text`` (no BOM), or None when it does not tokenize."""
    index = index or TextIndex(text)
    runs: Dict[int, Tuple[int, int]] = {}
    clean: Set[int] = set()
    comments: List[Tuple[int, int]] = []
    lo, hi = None, None
    try:
        for tok in tokens(text):
            if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            lo = tok.start[0] if lo is None else min(lo, tok.start[0])
            hi = tok.end[0] if hi is None else max(hi, tok.end[0])
            if tok.type == tokenize.COMMENT:
                comments.append((index.offset(*tok.start), index.offset(*tok.end)))
            elif tok.type in (tokenize.NL, tokenize.NEWLINE):
                clean.add(tok.start[0])
                for n in range(lo, hi + 1):
                    runs[n] = (lo, hi)
                lo = hi = None
    except (tokenize.TokenError, SyntaxError):
        return None
    return LineLayout(runs, clean, comments)


def noqa_edit(text: str, line: int, code: str, layout: Optional[LineLayout] = None,
              index: Optional["TextIndex"] = None) -> Optional[Edit]:
    """Silence ``code`` reported on 1-based ``line`` the way flake8 reads it: merge ``, CODE``
    into the ``# noqa:`` list flake8 finds for that line, else append ``  # noqa: CODE`` to the
    last line of the line's token run (flake8 searches the whole run: a statement continued by
    a backslash or a string over several lines takes its comment on its last line). None when
    a bare ``# noqa`` already silences everything, when flake8 would read a ``# noqa`` inside a
    string first, or when no comment can be placed. ``layout`` and ``index``: ``text``'s, when
    the caller keeps them (a text without its BOM)."""
    body, cut = split_bom(text)
    if cut:
        edit = noqa_edit(body, line, code)
        return edit if edit is None else Edit(edit.start + cut, edit.end + cut, edit.text)
    index = index or TextIndex(text)
    if not 1 <= line <= index.line_count:
        return None
    layout = layout or line_layout(text, index)
    if layout is None or line not in layout.runs:
        return None
    first, last = layout.runs[line]
    start = index.starts[first - 1]
    searched = "".join(index.line_text(n - 1) + "\n" for n in range(first, last + 1))
    m = NOQA.search(searched)
    if m:
        at = start + _offset_in_run(index, first, m.start())
        i = bisect.bisect_right(layout.comments, (at, len(text) + 1)) - 1
        if i < 0 or not layout.comments[i][0] <= at < layout.comments[i][1]:
            return None  # flake8 reads a "# noqa" inside a string first: nothing to add to
        codes = m.group("codes")
        if not codes:
            return None  # a bare "# noqa" silences every code already
        # right after the last code: what follows it (a reason, a trailing comma) stays after
        end = m.start("codes") + len(codes.rstrip(", \t\f\v\r\n"))
        at = start + _offset_in_run(index, first, end)
        edit = Edit(at, at, f", {code}")
    else:
        if last not in layout.clean:
            return None
        content = index.line_text(last - 1)
        at = index.starts[last - 1] + len(content.rstrip())
        edit = Edit(at, at, f"  # noqa: {code}")
    pos = _run_position(index, first, at)  # what flake8 will search once the edit is made
    return edit if silences(searched[:pos] + edit.text + searched[pos:], code) else None


def _offset_in_run(index: "TextIndex", first: int, pos: int) -> int:
    """Offset from the start of line ``first`` of position ``pos`` in the run's searched text
    (its lines joined with "\n": a line ending of another width shifts what follows)."""
    line, col = first, pos
    while line < index.line_count and col > len(index.line_text(line - 1)):
        col -= len(index.line_text(line - 1)) + 1
        line += 1
    return index.starts[line - 1] + col - index.starts[first - 1]


def _run_position(index: "TextIndex", first: int, at: int) -> int:
    """Position in the run's searched text of the text offset ``at`` (inverse of the above)."""
    line, col = index.line_col(at)
    return sum(len(index.line_text(n - 1)) + 1 for n in range(first, line)) + col


# --------------------------------------------------------------------------- positions
class TextIndex:
    """Offsets, (1-based line, character column) and LSP positions of one text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_text(self, line0: int) -> str:
        """Line ``line0`` (0-based) without its line ending."""
        start = self.starts[line0]
        end = self.starts[line0 + 1] if line0 + 1 < len(self.starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def offset(self, line1: int, column: int) -> int:
        line1 = min(max(line1, 1), self.line_count)
        return min(self.starts[line1 - 1] + column, len(self.text))

    def line_col(self, offset: int) -> Tuple[int, int]:
        """(1-based line, character column) of an offset."""
        i = bisect.bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i]

    def to_lsp(self, line1: int, column: int, encoding: str = UTF16) -> Tuple[int, int]:
        """(0-based line, column in the client's units)."""
        if line1 > self.line_count:
            return self.line_count - 1, _units(self.line_text(self.line_count - 1), encoding)
        text = self.line_text(line1 - 1)
        return line1 - 1, _units(text[:column], encoding)

    def from_lsp(self, line0: int, units: int, encoding: str = UTF16) -> Tuple[int, int]:
        """(1-based line, character column) of an LSP position, clamped into the text."""
        if line0 >= self.line_count:
            return self.line_count, len(self.line_text(self.line_count - 1))
        line0 = max(line0, 0)
        text = self.line_text(line0)
        if encoding == UTF32 or text.isascii():
            return line0 + 1, min(max(units, 0), len(text))
        count = 0
        for i, ch in enumerate(text):
            if count >= units:
                return line0 + 1, i
            count += _units(ch, encoding)
        return line0 + 1, len(text)


def _units(s: str, encoding: str) -> int:
    if encoding == UTF32 or s.isascii():
        return len(s)
    if encoding == UTF8:
        return len(s.encode("utf-8", "surrogatepass"))
    return len(s) + sum(1 for ch in s if ord(ch) > 0xFFFF)


def overlaps(a: Tuple[Tuple[int, int], Tuple[int, int]],
             b: Tuple[Tuple[int, int], Tuple[int, int]]) -> bool:
    """Do two ((line, col), (line, col)) ranges touch (ends included)?"""
    return a[0] <= b[1] and b[0] <= a[1]


# --------------------------------------------------------------------------- notebooks
@dataclass
class CellMap:
    """Where each code cell of an open notebook sits in the joined source."""

    uris: List[str]
    firsts: List[int]  # first line (1-based) of each cell in the joined source
    counts: List[int]  # lines of each cell

    def locate(self, line: int) -> Tuple[int, int]:
        """(cell index, 1-based line in that cell) of a joined-source line."""
        i = max(bisect.bisect_right(self.firsts, line) - 1, 0)
        return i, line - self.firsts[i] + 1

    def joined_line(self, cell: int, line: int) -> int:
        return self.firsts[cell] + line - 1


def join_notebook(cells: Sequence[Tuple[str, str]]) -> Tuple[str, CellMap]:
    """(joined source, CellMap) of ``[(cell uri, cell text)]``, joined as ``tensorcopy check``
    joins a notebook file's code cells."""
    from ..notebook import join_cells

    joined, firsts = join_cells([t for _, t in cells])
    counts = [(firsts[i + 1] if i + 1 < len(firsts) else joined.count("\n") + 1) - firsts[i]
              for i in range(len(firsts))]
    return joined, CellMap([u for u, _ in cells], firsts, counts)


def parseable_cells(cells: Sequence[Tuple[str, str]]
                    ) -> Tuple[List[Tuple[str, str]], List[int]]:
    """(``cells`` with each code cell that does not parse on its own blanked, the indices of
    those cells). Jupyter runs each cell on its own, so a typo in one cell says nothing about
    the others: they are still linted as one program (names defined in a cell reach the later
    ones), the broken cell standing as as many blank lines as it has (every other cell keeps
    its lines in the joined source). Nothing is blanked when the joined cells parse."""
    cells = list(cells)
    if parses(join_notebook(cells)[0]):
        return cells, []
    out, broken = [], []
    for i, (uri, text) in enumerate(cells):
        if parses(join_notebook([(uri, text)])[0]):
            out.append((uri, text))
        else:
            out.append((uri, "\n" * text.count("\n")))
            broken.append(i)
    return out, broken


def notebook_fix_all(path: Optional[str], cells: Sequence[Tuple[str, str]],
                     cfg: Config) -> Dict[str, List[Edit]]:
    """The safe fixes of a whole open notebook, exactly as ``fixes.fix_source`` applies them to
    the joined code cells, as edits of each cell's own text ({cell uri: [Edit]}). Empty when
    nothing changes, the joined source does not parse, or a change cannot be placed in one cell
    (it would span two cells or touch a blanked magic line)."""
    import difflib

    joined, cmap = join_notebook(cells)
    edit = fix_all(path, joined, cfg)
    if edit is None:
        return {}
    fixed = apply_edits(joined, [edit])
    old_lines = joined.split("\n")
    new_lines = fixed.split("\n")
    out: Dict[str, List[Edit]] = {}
    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    hunks = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag == "replace" and i2 - i1 == j2 - j1:  # line for line: one hunk per changed line
            hunks.extend((i1 + k, i1 + k + 1, j1 + k, j1 + k + 1) for k in range(i2 - i1)
                         if old_lines[i1 + k] != new_lines[j1 + k])
        else:
            hunks.append((i1, i2, j1, j2))
    for i1, i2, j1, j2 in hunks:
        cell, first = cmap.locate(i1 + 1)
        if i2 > i1 and cmap.locate(i2)[0] != cell:
            return {}  # spans two cells
        uri, text = cells[cell]
        index = TextIndex(text)
        cell_lines = text.split("\n")
        lo, hi = first - 1, first - 1 + (i2 - i1)  # 0-based lines of the cell
        if any(lo + k >= len(cell_lines) or cell_lines[lo + k] != old_lines[i1 + k]
               for k in range(i2 - i1)):
            return {}  # a magic line or a line the join changed
        start = index.starts[lo] if lo < index.line_count else len(text)
        end = index.starts[hi] if hi < index.line_count else len(text)
        new = "".join(line + "\n" for line in new_lines[j1:j2])
        if hi >= index.line_count and not text.endswith("\n"):
            new = new[:-1] if new.endswith("\n") else new
            if start == len(text) and new:
                new = "\n" + new  # appended after an unterminated last line
        out.setdefault(uri, []).append(Edit(start, end, new))
    return out
