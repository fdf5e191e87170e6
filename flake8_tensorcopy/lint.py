"""The one step every front end calls: "lint this text (or file) under this configuration".

Front ends (the CLI commands, the notebook reader, the language server, the runtime report)
only translate their input into a call here and the FileResult back into their own output.
Nothing here imports a front end.
"""
from __future__ import annotations

import signal
import sys
import threading
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

from .config import Config
from .diagnostics import Diagnostic, selected
from .source import DecodedSource, SourceError, decode


@dataclass
class FileResult:
    path: str
    diagnostics: List[Diagnostic] = field(default_factory=list)
    error: Optional[str] = None  # unreadable input (exit 2)
    syntax_error: Optional[str] = None  # does not parse (reported, left untouched)
    applied: Counter = field(default_factory=Counter)
    source: Optional[str] = None
    cells: Optional[list] = None  # notebooks: [(cell index, first line in joined source)]
    #: warnings about this file (printed as ``tensorcopy: warning: PATH: NOTE``)
    notes: List[str] = field(default_factory=list)
    #: the run must not exit 0 because of this file (e.g. it changed on disk while being fixed)
    failed: bool = False
    #: ``fix -``: the bytes to print (None: echo the input unchanged)
    output: Optional[bytes] = None


class Budget(BaseException):
    """A file took longer than the per-file time budget. A BaseException, so that no
    ``except Exception`` on the way (the engine's) turns it into a parse error."""


_stdin: Optional[bytes] = None


def stdin_bytes() -> bytes:
    """Standard input, read once (before any worker starts, so that the front end can echo it
    when a worker fails)."""
    global _stdin
    if _stdin is None:
        _stdin = sys.stdin.buffer.read()
    return _stdin


@contextmanager
def time_budget(seconds: float):
    """Raise Budget inside the block after ``seconds`` (main thread on POSIX; else no limit)."""
    usable = seconds and seconds > 0 and hasattr(signal, "setitimer") and \
        threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def expired(signum, frame):
        raise Budget()

    old = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def guarded(fn, path: str, budget: float, *args):
    """Run ``fn(path, *args)`` (which returns ``(result, patch)``) within the budget; a blown
    budget or an internal error becomes a per-file error result instead of a traceback."""
    try:
        with time_budget(budget):
            return fn(path, *args)
    except Budget:
        out = FileResult(path, error=budget_message(budget))
    except RecursionError:
        out = FileResult(path, error="nested too deeply to analyse; skipped")
    except MemoryError:
        out = FileResult(path, error="out of memory while analysing; skipped")
    except Exception as exc:  # a bug must cost one file, never the run (and never a traceback)
        out = FileResult(path, error=f"internal error ({type(exc).__name__}: {exc}); skipped"
                         .splitlines()[0])
    return out, None


def budget_message(budget: float) -> str:
    return f"analysis exceeded the {budget:g} s per-file budget; skipped"


def read_source(path: str) -> Tuple[Optional[DecodedSource], Optional[str]]:
    """The decoded text of ``path`` (``-``: standard input), or an error phrase."""
    try:
        if path == "-":
            data = stdin_bytes()
        else:
            with open(path, "rb") as fh:
                data = fh.read()
    except FileNotFoundError:
        return None, "no such file or directory"
    except IsADirectoryError:
        return None, "is a directory"
    except PermissionError:
        return None, "permission denied"
    except OSError as exc:
        return None, f"cannot read: {exc.strerror or exc}"
    try:
        return decode(data), None
    except SourceError as exc:
        return None, str(exc)


def lint_path(path: str, cfg: Config, select: Sequence[str], ignore: Sequence[str]) -> FileResult:
    """Lint one file (a notebook's code cells as one program)."""
    result = FileResult(path)
    if path.endswith(".ipynb"):
        return _lint_notebook(result, cfg, select, ignore)
    decoded, error = read_source(path)
    if error:
        result.error = error
        return result
    return lint_text(result, decoded.text, cfg, select, ignore)  # type: ignore[union-attr]


def lint_text(result: FileResult, text: str, cfg: Config, select: Sequence[str],
              ignore: Sequence[str]) -> FileResult:
    """Fill ``result`` with the selected, noqa-filtered diagnostics of ``text``."""
    from .engine import LintError, analyze, filter_noqa  # the engine: only when a file is analysed

    result.source = text
    try:
        diags = analyze(text, cfg.settings(), filename=result.path)
    except LintError as exc:
        result.syntax_error = str(exc)
        return result
    ign = list(ignore) + cfg.ignored_for(result.path)
    result.diagnostics = filter_noqa([d for d in diags if selected(d.code, select, ign)], text)
    return result


def _lint_notebook(result: FileResult, cfg: Config, select: Sequence[str],
                   ignore: Sequence[str]) -> FileResult:
    from .notebook import notebook_source

    try:
        with open(result.path, encoding="utf-8") as fh:
            source, cells = notebook_source(fh.read())
    except OSError as exc:
        result.error = f"cannot read: {exc.strerror or exc}"
        return result
    except (ValueError, UnicodeDecodeError, TypeError, AttributeError, RecursionError) as exc:
        result.error = f"invalid notebook: {(str(exc).splitlines() or [type(exc).__name__])[0]}"
        return result
    result.cells = cells or [(1, 1)]
    return lint_text(result, source, cfg, select, ignore)
