"""What ``check`` and ``fix`` share: path options, configuration, the file list, and running one
task per file (in worker processes when that pays) within the per-file time budget."""
from __future__ import annotations

import argparse
import math
import os
import signal
import stat
import sys
import time
from collections import deque
from typing import Dict, List, Optional, Sequence, Tuple

from ..cache import states_of
from ..config import Config, ConfigError, discover
from ..diagnostics import NOT_ANALYSED
from ..files import iter_files
from ..formats.common import rel
from ..lint import (FileResult, budget_message, guarded, index_notes, keep_index_warm,
                    lint_path, stdin_bytes)


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


def progress(done: int, total: int) -> None:
    if total >= 200 and sys.stderr.isatty():
        sys.stderr.write(f"\r{done}/{total} files")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def collect(paths: Sequence[str], cfg: Config, exclude: Sequence[str],
            notebooks: bool) -> Tuple[List[str], List[FileResult]]:
    """The files to process (each once, however often it is named), and the results already
    known: missing files and unreadable directories (errors), broken links found while walking
    a directory (warnings: skipped)."""
    suffixes = (".py", ".pyi", ".ipynb") if notebooks else (".py", ".pyi")
    files: List[str] = []
    known: List[FileResult] = []
    seen = set()
    unreadable: List[Tuple[str, str]] = []
    real_dirs: Dict[str, str] = {}
    for path, explicit in iter_files(paths, list(exclude) + cfg.exclude, suffixes, unreadable):
        if path == "-":
            key, exists = path, True
        elif explicit:
            key, exists = os.path.normcase(os.path.realpath(path)), os.path.exists(path)
        else:
            key, exists = _walked_identity(path, real_dirs)
        if key in seen:
            continue
        seen.add(key)
        if explicit and not exists:
            known.append(FileResult(path, error="no such file or directory"))
        elif not exists:  # a dangling symbolic link
            known.append(FileResult(path, notes=["broken symbolic link; skipped"]))
        else:
            files.append(path)
    for directory, reason in unreadable:
        known.append(FileResult(directory, error=f"cannot read directory: {reason}"))
    return files, known


def _walked_identity(path: str, real_dirs: Dict[str, str]) -> Tuple[str, bool]:
    """(the real path, does it exist) of a file found by walking a directory: one ``lstat``
    unless it is a symbolic link, the directory's real path worked out once per directory."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return os.path.normcase(os.path.realpath(path)), False
    if stat.S_ISLNK(mode):
        return os.path.normcase(os.path.realpath(path)), os.path.exists(path)
    directory, name = os.path.split(path)
    real = real_dirs.get(directory)
    if real is None:
        real = real_dirs[directory] = os.path.realpath(directory)
    return os.path.normcase(os.path.join(real, name)), True


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


def print_errors(results: List[FileResult], fixing: bool = False) -> int:
    """One line per file that could not be read or parsed (and one per warning); returns 2 if
    any file could not be read, else 0. ``fixing``: say what happened to the file."""
    status = 0
    for r in results:
        left = ""
        if fixing:
            left = "; input echoed unchanged" if r.path == "-" else "; file left unchanged"
        if r.error:
            print(f"tensorcopy: error: {rel(r.path)}: {r.error}{left if r.path == '-' else ''}",
                  file=sys.stderr)
            status = 2
        elif r.syntax_error:
            print(f"tensorcopy: error: {rel(r.path)}: {r.syntax_error}{left}", file=sys.stderr)
        for note in r.notes:
            sep = ":" if note[:1].isdigit() else ": "  # "LINE:COL: ..." notes follow the path
            print(f"tensorcopy: warning: {rel(r.path)}{sep}{note}", file=sys.stderr)
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


def lint_only(path: str, cfg: Config, select, ignore) -> Tuple[FileResult, None]:
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
    fresh = _run_all([t for t, s in zip(tasks, stored) if s is None], jobs)
    for t, s in zip(tasks, stored):
        if s is not None:
            yield FileResult(t[1], diagnostics=s["diagnostics"], syntax_error=s["syntax_error"],
                             cells=[tuple(c) for c in s["cells"]] if s["cells"] else None), None
            continue
        r, patch = next(fresh)
        # a settled answer only: nothing applied, no note (a refused write, a file that changed
        # on disk: the next run must try again, and say so again)
        if r.error is None and not r.applied and not r.notes and not r.failed \
                and not r.index_notes:  # a limit was hit: the next run tries again
            cache.put(t[1], {"diagnostics": r.diagnostics, "syntax_error": r.syntax_error,
                             "cells": r.cells}, r.deps)
        yield r, patch
    if cache.warning:
        print(cache.warning, file=sys.stderr)


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
        with cf.ProcessPoolExecutor(max_workers=jobs) as pool:
            yield from pool.map(work, tasks, chunksize=max(1, min(32, len(tasks) // (jobs * 8))))
    except (OSError, cf.process.BrokenProcessPool) as exc:  # pragma: no cover - no processes here
        print(f"tensorcopy: warning: parallel run failed ({exc}); continuing in one process",
              file=sys.stderr)
        for t in tasks:
            yield work(t)


def _mp_methods():
    import multiprocessing

    return multiprocessing.get_all_start_methods()


def _worker_main(conn, tasks) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles ^C and kills workers
    while True:
        try:
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
        self.proc = ctx.Process(target=_worker_main, args=(child, tasks), daemon=True)
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

    from ..fixes import remove_temp_files

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
                remove_temp_files(path, w.proc.pid) if path != "-" else None
                workers[k] = _Worker(ctx, tasks)
                assign(workers[k])
    finally:
        for w in workers:
            try:
                if w.task is None and w.proc.is_alive():
                    w.conn.send(None)
                    w.proc.join(1)
            except OSError:
                pass
            w.kill()


def options(args: argparse.Namespace, notebooks: bool):
    """Configuration merged with the command line, and the files to process."""
    cfg = discover(args.paths, args.config)
    select = codes(args.select, "--select") or cfg.select
    ignore = codes(args.ignore, "--ignore") or cfg.ignore
    unsafe = args.unsafe_fixes or cfg.unsafe_fixes
    files, results = collect(args.paths, cfg, args.exclude or [], notebooks=notebooks)
    return cfg, select, ignore, unsafe, files, results
