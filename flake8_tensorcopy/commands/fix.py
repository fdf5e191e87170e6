"""``tensorcopy fix``: rewrite files with the fixes (safe ones unless ``--unsafe-fixes``)."""
from __future__ import annotations

import argparse
import difflib
import sys
from collections import Counter
from typing import Optional, Tuple

from ..config import Config
from ..formats.common import rel
from ..lint import FileResult, read_source
from ..cache import for_run
from .common import add_path_options, options, print_errors, progress, run_all


def add_parser(sub) -> None:
    p = sub.add_parser("fix", help="apply fixes in place (safe ones unless --unsafe-fixes)",
                       description="Rewrite files with the fixes; writes are atomic.")
    add_path_options(p)
    p.add_argument("--unsafe-fixes", action="store_true", help="also apply unsafe fixes")
    p.add_argument("--diff", action="store_true", help="print a unified diff, write nothing")
    p.add_argument("--show-remaining", action="store_true",
                   help="list diagnostics left after fixing")
    p.add_argument("--exit-zero", action="store_true",
                   help="exit 0 even when diagnostics remain (errors still exit 2)")
    p.set_defaults(func=run)


def fix_path(path: str, cfg: Config, select, ignore, unsafe: bool,
             diff: bool) -> Tuple[FileResult, Optional[str]]:
    """Fix one file; returns the result and, with ``diff``, its unified diff."""
    from ..engine import LintError, filter_noqa  # libcst: only for a file that is analysed
    from ..fixes import atomic_write, fix_source

    result = FileResult(path)
    decoded, error = read_source(path)
    if error:
        result.error = error
        return result, None
    text = decoded.text  # type: ignore[union-attr]
    ign = list(ignore) + cfg.ignored_for(path)
    try:
        fixed = fix_source(text, unsafe=unsafe, select=select, ignore=ign, settings=cfg.settings())
    except LintError as exc:
        result.syntax_error = str(exc)
        return result, None
    result.applied = fixed.applied
    result.diagnostics = filter_noqa(fixed.remaining, fixed.source)
    result.source = fixed.source
    if path == "-":
        if not diff:
            sys.stdout.buffer.write(decoded.encode(fixed.source))  # type: ignore[union-attr]
            sys.stdout.flush()
            return result, None
    if not fixed.changed:
        return result, None
    if diff:
        name = rel(path)
        return result, "".join(difflib.unified_diff(
            text.splitlines(keepends=True), fixed.source.splitlines(keepends=True),
            f"a/{name}", f"b/{name}"))
    try:
        atomic_write(path, decoded.encode(fixed.source))  # type: ignore[union-attr]
    except OSError as exc:
        result.error = f"cannot write: {exc.strerror or exc}"
        result.applied = Counter()
    return result, None


def run(args: argparse.Namespace) -> int:
    cfg, select, ignore, unsafe, files, results = options(args, notebooks=False)
    tasks = [(fix_path, p, args.timeout, cfg, select, ignore, unsafe, args.diff) for p in files]
    cache = for_run(args, cfg, "fix", select, ignore, unsafe)
    for i, (r, patch) in enumerate(run_all(tasks, args.jobs, cache), 1):
        if patch:
            sys.stdout.write(patch)
        results.append(r)
        progress(i, len(files))
    status = print_errors(results)
    applied: Counter = Counter()
    for r in results:
        applied.update(r.applied)
    remaining = [(r, d) for r in results for d in r.diagnostics]
    out = sys.stderr
    verb = "Would fix" if args.diff else "Fixed"
    changed = sum(1 for r in results if r.applied)
    per_code = ", ".join(f"{c}: {n}" for c, n in sorted(applied.items()))
    print(f"{verb} {sum(applied.values())} diagnostic(s) in {changed} file(s)"
          + (f" ({per_code})" if per_code else "") + ".", file=out)
    if remaining:
        for r, d in remaining:
            if args.show_remaining:
                print(f"{rel(r.path)}:{d.line}:{d.column + 1}: {d.code} {d.message}", file=out)
        hidden = sum(1 for _, d in remaining if d.fix and not d.fix.is_safe and not unsafe)
        print(f"{len(remaining)} diagnostic(s) remain"
              + (f"; {hidden} fixable with --unsafe-fixes" if hidden else "") + ".", file=out)
    if status:
        return status
    if args.exit_zero:
        return 0
    if args.diff:
        return 1 if applied or remaining else 0
    return 1 if remaining or any(r.syntax_error for r in results) else 0
