"""What ``check`` and ``fix`` share: path options, configuration, the file list, and running one
task per file (in worker processes when that pays) within the per-file time budget."""
from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional, Sequence, Tuple

from ..config import Config, discover
from ..files import iter_files
from ..formats.common import rel
from ..lint import FileResult, guarded, lint_path


def add_path_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", default=["."],
                   help="files or directories (default: .); `-` reads standard input")
    p.add_argument("--select", action="append", metavar="CODES",
                   help="only these code prefixes, comma separated (default: TEN)")
    p.add_argument("--ignore", action="append", metavar="CODES",
                   help="skip these code prefixes, comma separated")
    p.add_argument("--exclude", action="append", metavar="GLOB",
                   help="skip paths matching this glob (repeatable); .gitignore is honoured")
    p.add_argument("--config", metavar="PYPROJECT",
                   help="read [tool.tensorcopy] from this file instead of searching upwards")
    p.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                   help="worker processes (default: one per CPU; 1 runs in this process)")
    p.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
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
    suffixes = (".py", ".pyi", ".ipynb") if notebooks else (".py", ".pyi")
    files: List[str] = []
    missing: List[FileResult] = []
    for path, explicit in iter_files(paths, list(exclude) + cfg.exclude, suffixes):
        if explicit and path != "-" and not os.path.exists(path):
            missing.append(FileResult(path, error="no such file or directory"))
        else:
            files.append(path)
    return files, missing


def codes(values: Optional[Sequence[str]]) -> Optional[List[str]]:
    if values is None:
        return None
    out = []
    for v in values:
        out.extend(p.strip().upper() for p in v.split(",") if p.strip())
    return out


def print_errors(results: List[FileResult]) -> int:
    status = 0
    for r in results:
        if r.error:
            print(f"tensorcopy: error: {rel(r.path)}: {r.error}", file=sys.stderr)
            status = 2
        elif r.syntax_error:
            print(f"tensorcopy: error: {rel(r.path)}: {r.syntax_error}; file left unchanged",
                  file=sys.stderr)
    return status


def work(task):
    """One task ``(fn, path, timeout, *args)``, in a worker process (or inline): ``fn(path, *args)``
    (which returns ``(result, patch)``) within the per-file time budget."""
    fn, path, timeout, *args = task
    r, patch = guarded(fn, path, timeout, *args)
    r.source = None  # not needed by any report; keeps what crosses processes small
    return r, patch


def lint_only(path: str, cfg: Config, select, ignore) -> Tuple[FileResult, None]:
    return lint_path(path, cfg, select, ignore), None


#: below this many files a process pool costs more than it saves
PARALLEL_MIN_FILES = 16


def run_all(tasks, jobs: int, cache=None):
    """Yield (result, patch) per task, in order; in parallel over processes when worth it.

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
        if r.error is None and not r.applied:
            cache.put(t[1], {"diagnostics": r.diagnostics, "syntax_error": r.syntax_error,
                             "cells": r.cells})
        yield r, patch
    if cache.warning:
        print(cache.warning, file=sys.stderr)


def _run_all(tasks, jobs: int):
    jobs = jobs if jobs and jobs > 0 else (os.cpu_count() or 1)
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


def options(args: argparse.Namespace, notebooks: bool):
    """Configuration merged with the command line, and the files to process."""
    cfg = discover(args.paths, args.config)
    select = codes(args.select) or cfg.select
    ignore = codes(args.ignore) or cfg.ignore
    unsafe = args.unsafe_fixes or cfg.unsafe_fixes
    files, results = collect(args.paths, cfg, args.exclude or [], notebooks=notebooks)
    return cfg, select, ignore, unsafe, files, results
