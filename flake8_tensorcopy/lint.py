"""The door: ``diagnose`` is the only way any front end reaches the engine.

Front ends (the flake8 plugin, the CLI commands, the language server, the runtime report,
``lint_source``) and the fixer only translate their input into a call here and the diagnostics
back into their own output; selection, per-file ignores and ``# noqa`` are applied here, once,
the same way for all of them. Nothing here imports a front end.
"""
from __future__ import annotations

import signal
import sys
import threading
from collections import Counter
from contextlib import contextmanager
from typing import TYPE_CHECKING, List, Optional, Sequence, Tuple

from .diagnostics import Diagnostic, field, record, selected
from .syntax.parse import LintError
from .syntax.prefilter import SHAPES, plan

if TYPE_CHECKING:  # the flake8 plugin imports this module on every run: keep it light
    from .config import Config
from .syntax.source import DecodedSource, SourceError, decode


@record
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
    #: what the analysis depended on (``cache.states_of``), for the results cache
    deps: Optional[list] = None
    #: limits the project index hit while this file was analysed (said once per run)
    index_notes: List[str] = field(default_factory=list)


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


#: signals that end a run cleanly: the workers are killed and the run exits ``128 + signum``
#: (``commands.common``); held back while ``fix`` renames a file into place (``writes``)
STOP_SIGNALS = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))


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


def candidates(source: str, tree=None, path: Optional[str] = None,
               source_roots: Sequence[str] = ()):
    """The pre-filter's plan for ``source`` (``tree``: its ``ast`` module, if the caller has
    one; ``path``: where it lives, and ``source_roots``, for the project's questions to the
    plan, ``finder.project_reach``) when a rule may fire there, else None: what the flake8
    plugin asks before it pays for the engine's import. Cheap: a text search, then one look at
    the tree, and for some files a look at the text of the project modules their imports
    reach (paths and text: the engine is not imported for it)."""
    if SHAPES.search(source) is None:
        return None
    if tree is None:
        return True  # no tree to plan on: the engine plans it
    planned = plan(tree, source, lambda holds: _reach(path, source, source_roots, holds))
    return planned if planned[0] else None


def _reach(path: Optional[str], source: str, source_roots: Sequence[str], holds) -> bool:
    from .semantic.index.finder import project_reach

    return project_reach(path, source, source_roots, holds)


def load_engine() -> bool:
    """Import the engine and the project index now, ahead of the first analysis (a front end
    that moves long-lived objects out of the cyclic collector's view does so after this); True
    when this call imported them, False when they were already loaded."""
    if "flake8_tensorcopy.engine" in sys.modules:
        return False
    from . import engine  # noqa: F401
    from .semantic import index  # noqa: F401
    return True


def diagnose(text: str, path: Optional[str], config: Config, *, for_fix: bool = False,
             select: Optional[Sequence[str]] = None, ignore: Optional[Sequence[str]] = None,
             raw: bool = False, tree=None, planned=None) -> List[Diagnostic]:
    """The diagnostics of ``text``, which lives at ``path`` (None: nowhere; the project index
    reads the file's project only for a real path). Raises LintError when it does not parse.

    ``for_fix``: the fixer's view, every definition built (the lint view skips those with no
    candidate). Codes are kept when selected by ``select`` (default: ``config.select``) and
    ignored by neither ``ignore`` (default: ``config.ignore``) nor ``config``'s per-file-ignores
    for ``path``; then ``# noqa`` is honoured (a ``# flake8: noqa`` line: nothing is analysed).
    ``raw``: none of that (flake8 selects and reads
    ``# noqa`` itself): every code, unless ``select``/``ignore`` are given. ``tree`` and
    ``planned`` are the ``ast`` module and the pre-filter's plan when the caller has them.
    """
    if not raw:
        from .noqa import skips_file

        if skips_file(text):  # flake8 skips the whole file: no analysis, not even its syntax
            return []
    from .engine import analyze  # the engine: only when a file is analysed

    diags = analyze(text, config.settings(), tree=tree, planned=planned, mask=not for_fix,
                    filename=path)
    if raw:
        if select is None and ignore is None:
            return diags
        return [d for d in diags if selected(d.code, select, ignore)]
    from .noqa import filter_noqa

    sel = config.select if select is None else select
    ign = list(config.ignore if ignore is None else ignore)
    if path:
        ign += config.ignored_for(path)
    return filter_noqa([d for d in diags if selected(d.code, sel, ign)], text)


def dependency_states(path: str) -> List[Tuple[str, Optional[str]]]:
    """What the analysis of ``path`` just made in this process depended on, through the project
    index: ``(file, SHA-256 of the bytes read there)``, ``(file, None)`` for a file an import was
    looked for in and not found, ``(path, files.PRESENT)`` for a project marker that decided
    where an importer's project starts (what a cached result of ``path`` depends on)."""
    from .semantic.index import dependency_states as read_for

    return read_for(path)


def index_notes() -> List[str]:
    """What the project index could not do (a limit it hit: a module too large to read, a chain
    too deep to follow) since the last call, each once per process; [] when the index was
    never used."""
    if "flake8_tensorcopy.semantic.index" not in sys.modules:
        return []
    from .semantic.index import take_notes

    return take_notes()


def keep_index_warm() -> None:
    """For one long process (the language server): keep more modules' facts between files."""
    from .semantic import index

    index.index().keep_warm()


def keep_facts_only() -> None:
    """For flake8's process: the project index keeps facts but no tree between files
    (``ProjectIndex.keep_facts_only``)."""
    from .semantic import index

    index.index().keep_facts_only()


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
              ignore: Sequence[str], name: Optional[str] = None) -> FileResult:
    """Fill ``result`` with the selected, noqa-filtered diagnostics of ``text``, linted as the
    file ``name`` (default: ``result.path``; ``--stdin-filename`` for ``-``)."""
    result.source = text
    try:
        result.diagnostics = diagnose(text, name or result.path, cfg, select=select,
                                      ignore=ignore)
    except LintError as exc:
        result.syntax_error = str(exc)
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
