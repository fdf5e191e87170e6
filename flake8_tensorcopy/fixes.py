"""Applying fixes: by safety class, without overlap, to a fixed point, never to broken code.

Edits are character offsets into the decoded text, so everything outside them (comments,
quotes, CRLF, a BOM, the coding cookie, trailing whitespace) stays byte for byte.
"""
from __future__ import annotations

import bisect
import errno
import gc
import os
import signal
import stat
import tempfile
import threading
from contextlib import contextmanager
from collections import Counter
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Set, Tuple

from .diagnostics import NOT_ANALYSED, Diagnostic, Edit
from .edits import EditSet, apply_edits, sorted_edits
from .config import Config
from .lint import STOP_SIGNALS, diagnose
from .syntax.parse import LintError, python_ast
from .syntax.source import line_starts

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

#: read leases (Linux): a file open for writing elsewhere is left alone
_LEASES = fcntl is not None and hasattr(fcntl, "F_SETLEASE") and hasattr(signal, "SIGIO")
MAX_ROUNDS = 8
_DEFAULT_CONFIG = Config()


@dataclass
class FixResult:
    source: str
    applied: Counter = field(default_factory=Counter)
    remaining: List[Diagnostic] = field(default_factory=list)
    #: diagnostics whose fix was not applied because the fixed code would not parse
    refused: List[Diagnostic] = field(default_factory=list)

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
               ignore: Optional[Sequence[str]] = None) -> FixResult:
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
        return _fix_source(source, config, path, unsafe, select, ignore)
    finally:
        if paused:
            gc.enable()


def _fix_source(source: str, config: Optional[Config], path: Optional[str], unsafe: bool,
                select: Optional[Sequence[str]], ignore: Optional[Sequence[str]]) -> FixResult:
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

    for _ in range(MAX_ROUNDS):
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
    result.remaining = diags
    lines = _Lines(current)
    result.refused = [d for d in diags if d.fix is not None
                      and _origin(d, lines, rounds, first) in broken]
    result.source = current
    return result


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


class Unchanged(Exception):
    """The fixed text was not written; the message says why (one line)."""

    def __init__(self, message: str, failed: bool = False) -> None:
        super().__init__(message)
        self.failed = failed  # the run must not exit 0 (the file changed under us)


_WRITE_BITS = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
TEMP_PREFIX = ".tensorcopy-"


def write_fixed(path: str, data: bytes, original: bytes, roots: Sequence[str] = ()) -> None:
    """Replace the file ``path``, which held ``original`` when it was read, with ``data``.

    The file keeps its identity or is left alone (Unchanged says why): a symbolic link is
    written through only to a target inside the linted tree (below one of ``roots``, the
    linted directories and the directories of the files named), never outside it; a file
    with other hard links is not split from them; a read-only file stays as it is; and a file
    whose bytes changed since they were read (an edit saved meanwhile, a line appended), or that
    another process holds open for writing (Linux), is not overwritten: both are checked right
    before the rename (``atomic_write``'s ``expect``), so a run never shortens a file it did not
    read in full. Otherwise the new bytes go to a temporary file in the same directory with the file's owner,
    group and mode, and are renamed over it (atomic: readers see the old or the new file).
    """
    try:
        st = os.lstat(path)
    except OSError as exc:
        raise Unchanged(f"cannot write: {exc.strerror or exc}", failed=True) from None
    if stat.S_ISLNK(st.st_mode):
        target = os.path.realpath(path)
        if not any(target.startswith(os.path.join(os.path.realpath(r), "")) for r in roots):
            raise Unchanged("is a symbolic link to a file outside the linted tree; left unchanged")
        path = target
        try:
            st = os.lstat(path)
        except OSError as exc:
            raise Unchanged(f"cannot write: {exc.strerror or exc}", failed=True) from None
    if not stat.S_ISREG(st.st_mode):
        raise Unchanged("is not a regular file; left unchanged")
    if st.st_nlink > 1:
        raise Unchanged(f"has {st.st_nlink - 1} other hard link(s); left unchanged "
                        "(a rewrite would split them)")
    if not st.st_mode & _WRITE_BITS or not os.access(path, os.W_OK):
        raise Unchanged("is read-only; left unchanged")
    try:
        atomic_write(path, data, st, expect=original)
    except OSError as exc:
        raise Unchanged(f"cannot write: {exc.strerror or exc}; left unchanged",
                        failed=True) from None


def atomic_write(path: str, data: bytes, st: Optional[os.stat_result] = None,
                 expect: Optional[bytes] = None) -> None:
    """Write via a temporary file in the same directory and rename. The temporary file gets
    ``st``'s owner, group and mode (those of the file replaced) before the rename; if the owner
    cannot be kept, nothing is written (OSError). With ``expect``, the file must still hold
    exactly those bytes, and (where leases work) be open for writing nowhere, at the rename
    (``_unchanged``: Unchanged if not).

    Where the system allows (Linux ``O_TMPFILE``), the bytes are written to a file with no name,
    which the kernel discards if the process is killed; it is given a name only after the check
    and right before the rename, with the stop signals held back between the two system calls
    (``_stop_signals_held``), so a killed run leaves neither a truncated file nor a temporary
    one (but for a SIGKILL sent to the writing process itself in that instant). Elsewhere a
    named temporary file is written, and removed on any error.
    """
    directory = os.path.dirname(os.path.abspath(path)) or "."
    if st is None:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            st = None
    fd, tmp = _anonymous(directory)
    if fd is None:
        fd, tmp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-", suffix=".tmp",
                                   dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            if st is not None:
                if (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
                    os.fchown(fh.fileno(), st.st_uid, st.st_gid)
                os.fchmod(fh.fileno(), stat.S_IMODE(st.st_mode))
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
            with _unchanged(path, expect), _stop_signals_held():
                if tmp is None:  # name the anonymous file now, next to its destination
                    tmp = _name(fh.fileno(), directory)
                os.replace(tmp, path)
    except BaseException:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise


@contextmanager
def _stop_signals_held():
    """Hold back the stop signals (``STOP_SIGNALS``) for the naming and rename of a temporary
    file: a process stopped between the two (a worker whose parent died: its death signal is
    SIGTERM) would leave the named file behind. A signal sent meanwhile is delivered right
    after."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextmanager
def _unchanged(path: str, expect: Optional[bytes]):
    """Around the rename over ``path``: Unchanged unless it holds ``expect`` (None: no check).

    Where the system has leases (Linux), a read lease is taken on the file first: it is refused
    while another process has the file open for writing (a writer that appends later would
    write to the replaced file, and its lines would be lost), and a writer that opens it after
    that waits for the lease, which is given up right after the rename.
    """
    if expect is None:
        yield
        return
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise Unchanged(f"cannot read it again: {exc.strerror or exc}", failed=True) from None
    leased = False
    old_handler = None
    try:
        if _LEASES and threading.current_thread() is threading.main_thread():
            # a lease break is signalled (SIGIO, by default fatal): noted by F_GETLEASE below
            old_handler = signal.signal(signal.SIGIO, lambda *a: None)
            try:
                fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK)
                leased = True
            except OSError as exc:
                if exc.errno == errno.EAGAIN:
                    raise Unchanged("is open for writing in another process; left unchanged",
                                    failed=True) from None
                # EPERM (not its owner), EINVAL (no leases on this file system): compare only
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        if b"".join(chunks) != expect:
            raise Unchanged("changed on disk while it was being fixed; left unchanged",
                            failed=True)
        if leased and fcntl.fcntl(fd, fcntl.F_GETLEASE) != fcntl.F_RDLCK:
            raise Unchanged("was opened for writing while it was being fixed; left unchanged",
                            failed=True)
        yield
    finally:
        if leased:
            try:
                fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
            except OSError:
                pass
        if old_handler is not None:
            signal.signal(signal.SIGIO, old_handler)
        os.close(fd)


def _anonymous(directory: str):
    """(fd, None) of a new nameless file in ``directory``, or (None, None) where unsupported."""
    flag = getattr(os, "O_TMPFILE", 0)
    if not flag or not os.path.isdir("/proc/self/fd"):
        return None, None
    try:
        return os.open(directory, flag | os.O_WRONLY, 0o600), None
    except OSError:  # a file system without O_TMPFILE
        return None, None


def _name(fd: int, directory: str) -> str:
    proc = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(100):
            name = os.path.join(directory, f"{TEMP_PREFIX}{os.getpid()}-{os.urandom(4).hex()}.tmp")
            try:
                os.link(str(fd), name, src_dir_fd=proc, follow_symlinks=True)
                return name
            except FileExistsError:
                continue
        raise FileExistsError(f"no free temporary name in {directory}")
    finally:
        os.close(proc)


def remove_temp_files(path: str, pid: int) -> None:
    """Remove what a killed process ``pid`` may have left while writing ``path``."""
    directory = os.path.dirname(os.path.abspath(path)) or "."
    prefix = f"{TEMP_PREFIX}{pid}-"
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        if name.startswith(prefix) and name.endswith(".tmp"):
            try:
                os.unlink(os.path.join(directory, name))
            except OSError:
                pass
