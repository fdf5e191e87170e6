"""What ``check`` and ``fix`` share: path options, configuration, the file list, and running one
task per file (in worker processes when that pays) within the per-file time budget."""
from __future__ import annotations

import argparse
import math
import os
import signal
import stat
import sys
import threading
import time
from collections import deque
from contextlib import closing, contextmanager
from typing import Dict, List, Optional, Sequence, Tuple

from ..cache import states_of
from ..config import Config, ConfigError, discover
from ..diagnostics import NOT_ANALYSED
from ..files import iter_files
from ..formats.common import rel
from .. import progress
from ..lint import (STOP_SIGNALS, FileResult, budget_message, guarded, index_notes,
                    keep_index_warm, lint_path, lint_text, read_source, stdin_bytes)


def add_code_options(p: argparse.ArgumentParser) -> None:
    """``--select`` / ``--ignore`` (read with ``codes``)."""
    p.add_argument("--select", action="append", metavar="CODES",
                   help="only these code prefixes, comma separated (default: TEN)")
    p.add_argument("--ignore", action="append", metavar="CODES",
                   help="skip these code prefixes, comma separated")


def add_path_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", default=["."],
                   help="files or directories (default: .); `-` reads standard input")
    add_code_options(p)
    p.add_argument("--exclude", action="append", metavar="GLOB",
                   help="skip paths matching this glob (repeatable); .gitignore is honoured")
    p.add_argument("--config", metavar="PYPROJECT",
                   help="read [tool.tensorcopy] from this file instead of searching upwards")
    p.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                   help="worker processes (default: one per CPU; 1 runs in this process)")
    p.add_argument("--timeout", type=timeout, default=60.0, metavar="SECONDS",
                   help="per-file time budget; a file that exceeds it is reported and "
                        "skipped (default 60, 0 for none)")
    p.add_argument("--no-cache", action="store_true",
                   help="neither read nor write the results cache (.tensorcopy_cache/ at the "
                        "project root)")
    progress.add_option(p)


def collect(paths: Sequence[str], cfg: Config, exclude: Sequence[str],
            notebooks: bool) -> Tuple[List[str], List[FileResult]]:
    """The files to process (each once, however often it is named), and the results already
    known: missing files and unreadable directories (errors), broken links found while walking
    a directory and anything that is not a regular file (a FIFO, a socket, a device: reading
    one may block forever) (warnings: skipped)."""
    suffixes = (".py", ".pyi", ".ipynb") if notebooks else (".py", ".pyi")
    files: List[str] = []
    known: List[FileResult] = []
    seen = set()
    unreadable: List[Tuple[str, str]] = []
    real_dirs: Dict[str, str] = {}
    for path, explicit in iter_files(paths, list(exclude) + cfg.exclude, suffixes, unreadable):
        if path == "-":
            key, mode = path, stat.S_IFREG
        elif explicit:
            key, mode = os.path.normcase(os.path.realpath(path)), _mode(path)
        else:
            key, mode = _walked_identity(path, real_dirs)
        if key in seen:
            continue
        seen.add(key)
        if explicit and mode is None:
            known.append(FileResult(path, error="no such file or directory"))
        elif mode is None:  # a dangling symbolic link
            known.append(FileResult(path, notes=["broken symbolic link; skipped"]))
        elif not stat.S_ISREG(mode):  # a FIFO would block the read forever, a device too
            known.append(FileResult(path, notes=[f"not a regular file ({_kind(mode)}); skipped"]))
        else:
            files.append(path)
    for directory, reason in unreadable:
        known.append(FileResult(directory, error=f"cannot read directory: {reason}"))
    return files, known


def _mode(path: str) -> Optional[int]:
    """``st_mode`` of what ``path`` names (links followed); None if nothing is there."""
    try:
        return os.stat(path).st_mode
    except (OSError, ValueError):
        return None


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISDIR, "a directory")):
        if test(mode):
            return name
    return "of an unknown kind"


def _walked_identity(path: str, real_dirs: Dict[str, str]) -> Tuple[str, Optional[int]]:
    """(the real path, its ``st_mode`` or None if it does not exist) of a file found by walking
    a directory: one ``lstat`` unless it is a symbolic link, the directory's real path worked
    out once per directory."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return os.path.normcase(os.path.realpath(path)), None
    if stat.S_ISLNK(mode):
        return os.path.normcase(os.path.realpath(path)), _mode(path)
    directory, name = os.path.split(path)
    real = real_dirs.get(directory)
    if real is None:
        real = real_dirs[directory] = os.path.realpath(directory)
    return os.path.normcase(os.path.join(real, name)), mode


def tree_roots(paths: Sequence[str]) -> List[str]:
    """The linted tree: the directories named, and the directories of the files named."""
    return [os.path.realpath(p if os.path.isdir(p) else os.path.dirname(os.path.abspath(p)))
            for p in paths if p != "-"]


def codes(values: Optional[Sequence[str]], option: str = "") -> Optional[List[str]]:
    """Comma-separated code prefixes; ConfigError for one that matches no code."""
    if values is None:
        return None
    out = []
    for v in values:
        out.extend(p.strip().upper() for p in v.split(",") if p.strip())
    from ..rules import RULES_BY_CODE  # the rules (and the engine under them): only when asked

    known = list(RULES_BY_CODE) + [NOT_ANALYSED]
    for prefix in out:
        if not any(code.startswith(prefix) for code in known):
            raise ConfigError(f"{option} {prefix} matches no code (codes: TEN001, "
                              f"{', '.join(RULES_BY_CODE)}; `tensorcopy rules` lists them)")
    return out


def timeout(value: str) -> float:
    """``--timeout``: a finite number of seconds, 0 or more (0: no budget)."""
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {value!r}") from None
    if not math.isfinite(seconds) or seconds < 0:
        raise argparse.ArgumentTypeError(
            f"must be a finite number of seconds, 0 or more (0: no budget), not {value!r}")
    return seconds


def print_errors(results: List[FileResult], fixing: bool = False,
                 stdin_name: Optional[str] = None) -> int:
    """One line per file that could not be read or parsed (and one per warning); returns 2 if
    any file could not be read, else 0. ``fixing``: say what happened to the file.
    ``stdin_name``: the name shown for ``-``."""
    status = 0
    for r in results:
        left = ""
        if fixing:
            left = "; input echoed unchanged" if r.path == "-" else "; file left unchanged"
        shown = stdin_name if r.path == "-" and stdin_name else rel(r.path)
        if r.error:
            print(f"tensorcopy: error: {shown}: {r.error}{left if r.path == '-' else ''}",
                  file=sys.stderr)
            status = 2
        elif r.syntax_error:
            print(f"tensorcopy: error: {shown}: {r.syntax_error}{left}", file=sys.stderr)
        for note in r.notes:
            sep = ":" if note[:1].isdigit() else ": "  # "LINE:COL: ..." notes follow the path
            print(f"tensorcopy: warning: {shown}{sep}{note}", file=sys.stderr)
    said = set()  # the project index's limits: once per run, whichever files met them
    for r in results:
        for note in r.index_notes:
            if note not in said:
                said.add(note)
                print(f"tensorcopy: warning: project index: {note}", file=sys.stderr)
    return status


def work(task):
    """One task ``(fn, path, timeout, *args)``, in a worker process (or inline): ``fn(path, *args)``
    (which returns ``(result, patch)``) within the per-file time budget."""
    fn, path, timeout, *args = task
    r, patch = guarded(fn, path, timeout, *args)
    r.source = None  # not needed by any report; keeps what crosses processes small
    if r.error is None and path != "-":
        r.deps = states_of(path)  # here, right after the analysis: what it read, as it read it
    r.index_notes = index_notes()
    return r, patch


def lint_only(path: str, cfg: Config, select, ignore,
              stdin_name: Optional[str] = None) -> Tuple[FileResult, None]:
    """Lint one file; ``-`` (standard input) as if it were at ``stdin_name`` when given (its
    per-file ignores, its project): the result is still the path ``-``."""
    if path == "-" and stdin_name:
        result = FileResult(path)
        decoded, error = read_source(path)
        if error:
            result.error = error
            return result, None
        return lint_text(result, decoded.text, cfg, select, ignore,  # type: ignore[union-attr]
                         name=stdin_name), None
    return lint_path(path, cfg, select, ignore), None


#: below this many files a process pool costs more than it saves
PARALLEL_MIN_FILES = 16
#: how long past its budget a file's worker may run before it is killed: SIGALRM stops Python
#: code on time, but not a call into native code (``ast.parse`` of a huge file), which only a
#: kill can stop
KILL_GRACE = 1.0


def run_all(tasks, jobs: int, cache=None):
    """Yield (result, patch) per task, in order (see ``_run_all``).

    With a ``cache`` (``cache.Cache``), files whose stored result is still valid are not
    analysed; the others' results are stored (by this process only) as they come back."""
    if cache is None:
        yield from _run_all(tasks, jobs)
        return
    stored = [cache.get(t[1]) for t in tasks]
    with closing(_run_all([t for t, s in zip(tasks, stored) if s is None], jobs)) as fresh:
        yield from _cached_or_fresh(tasks, stored, fresh, cache)
    if cache.warning:
        print(cache.warning, file=sys.stderr)


def _cached_or_fresh(tasks, stored, fresh, cache):
    for t, s in zip(tasks, stored):
        if s is not None:
            yield FileResult(t[1], diagnostics=s["diagnostics"], syntax_error=s["syntax_error"],
                             cells=s["cells"]), None
            continue
        r, patch = next(fresh)
        # a settled answer only: nothing applied, no note (a refused write, a file that changed
        # on disk: the next run must try again, and say so again)
        if r.error is None and not r.applied and not r.notes and not r.failed \
                and not r.index_notes:  # a limit was hit: the next run tries again
            cache.put(t[1], {"diagnostics": r.diagnostics, "syntax_error": r.syntax_error,
                             "cells": r.cells}, r.deps)
        yield r, patch


def _run_all(tasks, jobs: int):
    """Yield (result, patch) per task, in order.

    With a per-file budget (the task's timeout > 0) the work runs in forked worker processes
    (one for a few files, ``jobs`` for many): a worker whose file overruns its budget (say, in
    ``ast.parse``, native code SIGALRM cannot interrupt) or that dies (a crash in native
    code) is killed and replaced, and that file alone is reported. Without a budget, or where
    processes cannot be forked, files run in this process (or a plain process pool).
    """
    jobs = jobs if jobs and jobs > 0 else (os.cpu_count() or 1)
    if not tasks:
        return
    if len(tasks) > 1:
        # one run over many files: a project module they import is read and summarised once,
        # not again for every few files (the flake8 plugin keeps few: see ``resolve``)
        keep_index_warm()
    if "-" in (t[1] for t in tasks):
        stdin_bytes()  # read here: a worker's result may be lost, the input must not be
    budget = tasks[0][2]
    if budget and budget > 0 and "fork" in _mp_methods():
        workers = min(jobs, len(tasks)) if len(tasks) >= PARALLEL_MIN_FILES else 1
        yield from _run_forked(tasks, workers, budget)
        return
    parallel = [t for t in tasks if t[1] != "-"]
    if jobs <= 1 or len(parallel) < PARALLEL_MIN_FILES or len(parallel) != len(tasks):
        for t in tasks:
            yield work(t)
        return
    import concurrent.futures as cf

    try:
        with cf.ProcessPoolExecutor(max_workers=jobs, initializer=die_with_parent,
                                    initargs=(os.getpid(),)) as pool:
            yield from pool.map(work, tasks, chunksize=max(1, min(32, len(tasks) // (jobs * 8))))
    except (OSError, cf.process.BrokenProcessPool) as exc:  # pragma: no cover - no processes here
        print(f"tensorcopy: warning: parallel run failed ({exc}); continuing in one process",
              file=sys.stderr)
        for t in tasks:
            yield work(t)


def _mp_methods():
    import multiprocessing

    return multiprocessing.get_all_start_methods()




class Terminated(BaseException):
    """A stop signal arrived (``signum``): raised in the main thread to unwind the run, whose
    ``finally`` blocks kill the workers. A BaseException: no ``except Exception`` stops it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextmanager
def stopping_on_signals():
    """Within the block, SIGTERM and SIGHUP raise Terminated (once: a second one while the run
    unwinds is ignored, so that the clean-up finishes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        for s in STOP_SIGNALS:
            signal.signal(s, signal.SIG_IGN)
        raise Terminated(signum)

    old = {s: signal.signal(s, stop) for s in STOP_SIGNALS}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


def terminated(exc: Terminated, done: int, total: int, fixing: bool = False) -> int:
    """Say that the run was stopped (one line on stderr); the exit status, ``128 + signum``."""
    try:
        name = signal.Signals(exc.signum).name
    except ValueError:
        name = f"signal {exc.signum}"
    print(f"tensorcopy: error: terminated by {name} after {done} of {total} file(s)"
          + ("; the files not reached were left unchanged" if fixing else ""), file=sys.stderr)
    return 128 + exc.signum


def die_with_parent(parent: int) -> None:
    """In a worker process: be killed when the parent ``parent`` dies, however it dies (Linux:
    the parent-death signal; elsewhere the workers' loop checks ``getppid``), and undo the
    parent's signal handling."""
    for s in STOP_SIGNALS:
        signal.signal(s, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles ^C and kills workers
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            # SIGTERM, not SIGKILL: as deadly here (its default action), but it waits while a
            # fixed file is renamed into place (writes._stop_signals_held), so none is left named
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)  # PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the check below
            pass
    if os.getppid() != parent:  # it died before the line above took effect
        os._exit(1)


#: how often an idle worker checks that its parent is alive (where no parent-death signal)
LIVENESS_S = 1.0


def _worker_main(conn, tasks, parent: int) -> None:
    die_with_parent(parent)
    while True:
        try:
            while not conn.poll(LIVENESS_S):
                if os.getppid() != parent:
                    return
            i = conn.recv()
        except (EOFError, OSError):
            return
        if i is None:
            return
        out = work(tasks[i])
        try:
            conn.send((i, out))
        except OSError:  # the parent is gone
            return


class _Worker:
    def __init__(self, ctx, tasks) -> None:
        sys.stdout.flush()  # else the child inherits unwritten output and writes it again
        sys.stderr.flush()
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, tasks, os.getpid()),
                                daemon=True)
        self.proc.start()
        child.close()
        self.task: Optional[int] = None
        self.deadline = 0.0

    def kill(self) -> None:
        if self.proc.is_alive():
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.join()
        self.conn.close()


def _death(proc, budget: float, overran: bool) -> str:
    if overran:
        return budget_message(budget)
    code = proc.exitcode
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"the analysis process died ({name}); skipped"
    return f"the analysis process exited unexpectedly (status {code}); skipped"


def _run_forked(tasks, n_workers: int, budget: float):
    import multiprocessing
    from multiprocessing.connection import wait

    from ..writes import remove_orphans

    ctx = multiprocessing.get_context("fork")
    pending = deque(range(len(tasks)))
    done = {}
    workers: List[_Worker] = []

    def assign(w: _Worker) -> None:
        w.task = pending.popleft() if pending else None
        if w.task is not None:
            w.deadline = time.monotonic() + budget + KILL_GRACE
            w.conn.send(w.task)

    try:
        for _ in range(n_workers):
            w = _Worker(ctx, tasks)
            workers.append(w)
            assign(w)
        following = 0
        while following < len(tasks):
            while following in done:
                yield done.pop(following)
                following += 1
            if following >= len(tasks):
                break
            busy = [w for w in workers if w.task is not None]
            timeout = max(0.0, min(w.deadline for w in busy) - time.monotonic())
            wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], timeout)
            for k, w in enumerate(workers):
                if w.task is None:
                    continue
                try:
                    if w.conn.poll():
                        i, out = w.conn.recv()
                        done[i] = out
                        assign(w)
                        continue
                except (EOFError, OSError):
                    pass
                overran = time.monotonic() > w.deadline
                if not overran and w.proc.is_alive():
                    continue
                # overran its budget in native code, or died: that file alone is reported
                w.kill()
                path = tasks[w.task][1]
                done[w.task] = (FileResult(path, error=_death(w.proc, budget, overran)), None)
                remove_orphans([os.path.dirname(os.path.abspath(path))]) if path != "-" else None
                workers[k] = _Worker(ctx, tasks)
                assign(workers[k])
    finally:  # also on the way out of a stop signal (Terminated) or ^C
        for w in workers:
            try:
                if w.task is None and w.proc.is_alive():
                    w.conn.send(None)
                    w.proc.join(1)
            except OSError:
                pass
            w.kill()
            if w.task is not None and tasks[w.task][1] != "-":  # killed while on a file
                remove_orphans([os.path.dirname(os.path.abspath(tasks[w.task][1]))])


def options(args: argparse.Namespace, notebooks: bool):
    """Configuration merged with the command line, and the files to process."""
    stdin_name = getattr(args, "stdin_filename", None)  # `-` is looked up as if it were there
    cfg = discover([stdin_name if p == "-" and stdin_name else p for p in args.paths],
                   args.config)
    select = codes(args.select, "--select") or cfg.select
    ignore = codes(args.ignore, "--ignore") or cfg.ignore
    unsafe = args.unsafe_fixes or cfg.unsafe_fixes
    files, results = collect(args.paths, cfg, args.exclude or [], notebooks=notebooks)
    return cfg, select, ignore, unsafe, files, results
