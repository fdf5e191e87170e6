"""``tensorcopy check``: report diagnostics (no flake8 needed), optionally after safe fixes."""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from contextlib import closing
from typing import List

from .. import formats
from ..lint import FileResult
from ..cache import for_run
from ..progress import Progress
from .common import (Terminated, add_path_options, lint_only, options, print_errors, run_all,
                     stopping_on_signals, terminated, tree_roots)
from .fix import fix_path


def add_parser(sub) -> None:
    p = sub.add_parser("check", help="report diagnostics (no flake8 needed)",
                       description="Report tensor-copy diagnostics.")
    add_path_options(p)
    p.add_argument("--output-format", default="text", choices=list(formats.NAMES),
                   help="text (default), concise, json, github (workflow annotations), sarif")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when diagnostics remain")
    p.add_argument("--statistics", action="store_true", help="count diagnostics per code")
    p.add_argument("--stdin-filename", metavar="PATH", help="name to report for `-`")
    p.add_argument("--fix", action="store_true",
                   help="apply safe fixes first, then report what remains (as ruff's --fix)")
    p.add_argument("--unsafe-fixes", action="store_true", help="with --fix: unsafe fixes too")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    cfg, select, ignore, unsafe, files, results = options(args, notebooks=True)
    fixed = 0
    roots = tree_roots(args.paths)
    tasks = [(fix_path, p, args.timeout, cfg, select, ignore, unsafe, False, roots)
             if args.fix and not p.endswith(".ipynb") and p != "-" else
             (lint_only, p, args.timeout, cfg, select, ignore, args.stdin_filename)
             for p in files]
    cache = for_run(args, cfg, "fix" if args.fix else "check", select, ignore,
                    unsafe and args.fix)
    done = 0
    bar = Progress(len(files), "files", args.progress)
    try:
        with stopping_on_signals(), closing(run_all(tasks, args.jobs, cache)) as stream:
            for done, (r, _) in enumerate(stream, 1):
                fixed += sum(r.applied.values())
                if args.stdin_filename and r.path == "-":
                    r.path = args.stdin_filename
                results.append(r)
                bar.update(done)
    except Terminated as exc:
        bar.close()
        return terminated(exc, done, len(files), fixing=args.fix)
    bar.close()
    status = print_errors(results)
    diags = sum(len(r.diagnostics) for r in results)
    fmt = args.output_format
    report = formats.render(fmt, results)
    if report:
        print(report)
    if fmt == "text":
        if args.statistics:
            print_statistics(results)
        # notebooks are not fixed by `tensorcopy fix`: their fixes are not counted as fixable
        fixable = sum(1 for r in results if not r.cells for d in r.diagnostics
                      if d.fix and d.fix.is_safe)
        unchecked = sum(1 for r in results if r.error or r.syntax_error)
        if fixed:
            print(f"Fixed {fixed} diagnostic{'s' if fixed != 1 else ''}.")
        if diags:
            print(f"Found {diags} diagnostic{'s' if diags != 1 else ''} in "
                  f"{sum(1 for r in results if r.diagnostics)} file(s)"
                  + (f"; {fixable} fixable with `tensorcopy fix`." if fixable else "."))
        elif not unchecked:
            print(f"All checks passed ({len(files)} file{'s' if len(files) != 1 else ''}).")
        if unchecked:
            print(f"Could not check {unchecked} path{'s' if unchecked != 1 else ''}; "
                  "see the errors above.")
    elif args.statistics:
        print_statistics(results, sys.stderr)
    if status:
        return status
    if any(r.failed for r in results):
        return 1
    if any(r.syntax_error for r in results):
        return 1 if not args.exit_zero else 0
    return 1 if diags and not args.exit_zero else 0


def print_statistics(results: List[FileResult], stream=None) -> None:
    from ..rules import RULES_BY_CODE  # loads the rules: only when asked

    counts = Counter(d.code for r in results for d in r.diagnostics)
    for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        rule = RULES_BY_CODE.get(code)
        print(f"{n:6d}\t{code}\t{rule.name if rule else ''}", file=stream or sys.stdout)
