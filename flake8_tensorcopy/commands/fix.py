"""``tensorcopy fix``: rewrite files with the fixes (safe ones unless ``--unsafe-fixes``)."""
from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections import Counter
from contextlib import closing
from typing import List, Optional, Sequence, Tuple

from ..config import Config
from ..formats.common import rel
from ..cache import for_run
from ..lint import FileResult, LintError, lint_path, lint_text, read_source, stdin_bytes
from ..progress import Progress
from ..writes import Unchanged, remove_orphans, write_fixed
from . import prove
from .common import (Terminated, add_path_options, options, print_errors, run_all,
                     stopping_on_signals, terminated, tree_roots)


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
    p.add_argument("--stdin-filename", metavar="PATH",
                   help="name to report for `-`, whose per-file ignores and project apply")
    prove.add_options(p)
    p.set_defaults(func=run)


def fix_path(path: str, cfg: Config, select, ignore, unsafe: bool, diff: bool,
             roots: Sequence[str] = (), stdin_name: Optional[str] = None
             ) -> Tuple[FileResult, Optional[bytes]]:
    """Fix one file; returns the result and, with ``diff``, its unified diff. For ``-`` the
    fixed text is ``result.output`` (None: the front end echoes the input unchanged), fixed as
    if it were the file ``stdin_name`` when given. ``roots``: the linted tree, which a symbolic
    link may be written through to."""
    from ..fixes import fix_source  # the engine: only when a file is fixed

    result = FileResult(path)
    decoded, error = read_source(path)
    if error:
        result.error = error
        return result, None
    text = decoded.text  # type: ignore[union-attr]
    try:
        fixed = fix_source(text, cfg, stdin_name if path == "-" and stdin_name else path,
                           unsafe=unsafe, select=select, ignore=ignore)
    except LintError as exc:
        result.syntax_error = str(exc)
        return result, None
    result.applied = fixed.applied
    result.diagnostics = fixed.remaining  # selected and noqa-filtered by the door
    result.source = fixed.source
    for d in fixed.refused:
        result.notes.append(f"{d.line}:{d.column + 1}: {d.code} fix not applied: the fixed code "
                            "would not parse")
    if path == "-" and not diff:
        if fixed.changed:
            result.output = decoded.encode(fixed.source)  # type: ignore[union-attr]
        return result, None
    if not fixed.changed:
        return result, None
    if diff:
        return result, unified_diff(decoded.raw, decoded.encode(  # type: ignore[union-attr]
            fixed.source), rel(stdin_name if path == "-" and stdin_name else path))
    try:
        write_fixed(path, decoded.encode(fixed.source), decoded.raw,  # type: ignore[union-attr]
                    roots)
    except Unchanged as exc:
        result.notes.append(str(exc))
        result.failed = exc.failed
        result.applied = Counter()
        # what remains is what the file on disk still has
        lint_text(result, text, cfg, select, ignore)
    return result, None


def unified_diff(before: bytes, after: bytes, name: str) -> bytes:
    """A unified diff of the file's bytes that ``patch -p1`` and ``git apply`` accept, whatever
    its encoding (a BOM, a coding cookie) and line endings (CRLF, CR only, mixed): the lines are
    the file's own bytes split at ``\\n`` only, as those tools split them (a CR stays inside
    its line), and a last line without a newline is marked ``\\ No newline at end of file``."""
    out = []
    label = os.fsencode(name.replace(os.sep, "/") if os.sep != "/" else name)
    for line in difflib.diff_bytes(difflib.unified_diff, _lines(before), _lines(after),
                                   _header_name(b"a/" + label), _header_name(b"b/" + label),
                                   lineterm=b"\n"):
        if line[:1] in b" +-" and not line.endswith(b"\n"):
            line += b"\n\\ No newline at end of file\n"
        out.append(line)
    return b"".join(out)


#: bytes a header name writes as a C escape (git's ``quote_c_style``; ``patch`` reads it back)
_ESCAPES = {0x22: b'\\"', 0x5C: b"\\\\", 0x09: b"\\t", 0x0A: b"\\n", 0x0D: b"\\r"}


def _header_name(name: bytes) -> bytes:
    """``name`` as the ``---``/``+++`` line writes it so that ``patch`` and ``git apply`` both
    read it back whole: a name with a blank ends with a tab (the ``diff -u`` convention, where
    the tab starts the timestamp; without it ``patch`` stops at the blank); a name with a
    quote, a backslash or a control character is quoted with C escapes, as git writes it."""
    if any(b < 0x20 or b == 0x7F or b in (0x22, 0x5C) for b in name):
        return b'"' + b"".join(_ESCAPES.get(b) or (b"\\%03o" % b if b < 0x20 or b == 0x7F
                                                   else bytes((b,))) for b in name) + b'"'
    if any(b in b" \f\v" for b in name):
        return name + b"\t"
    return name


def _lines(data: bytes) -> List[bytes]:
    """``data`` split after each ``\\n`` (and nowhere else)."""
    parts = data.split(b"\n")
    return [p + b"\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def notebook_path(path: str, cfg: Config, select, ignore, unsafe: bool, diff: bool,
                  roots: Sequence[str] = (), stdin_name: Optional[str] = None
                  ) -> Tuple[FileResult, Optional[bytes]]:
    """Notebooks are linted, not fixed: say so, and report what remains."""
    result = lint_path(path, cfg, select, ignore)
    if not result.error:
        result.notes.append("notebooks are not fixed; left unchanged (its diagnostics remain)")
    return result, None


def run(args: argparse.Namespace) -> int:
    wrong = prove.misuse(args)
    if wrong:
        print(f"tensorcopy fix: error: {wrong}", file=sys.stderr)
        return 2
    if args.prove is not None:
        return prove.run(args)
    cfg, select, ignore, unsafe, files, results = options(args, notebooks=False)
    roots = tree_roots(args.paths)
    tasks = [(notebook_path if p.endswith(".ipynb") else fix_path, p, args.timeout, cfg, select,
              ignore, unsafe, args.diff, roots, args.stdin_filename) for p in files]
    cache = for_run(args, cfg, "fix", select, ignore, unsafe)
    if not args.diff:  # what a killed run left while writing goes first
        remove_orphans(sorted({os.path.dirname(os.path.abspath(p)) for p in files if p != "-"}))
    done = 0
    bar = Progress(len(files), "files", args.progress)
    try:
        with stopping_on_signals(), closing(run_all(tasks, args.jobs, cache)) as stream:
            for done, (r, patch) in enumerate(stream, 1):
                if patch:  # the file's own bytes
                    sys.stdout.flush()
                    sys.stdout.buffer.write(patch)
                    sys.stdout.buffer.flush()
                if r.path == "-" and not args.diff:  # a filter: whatever happened, print it
                    sys.stdout.flush()
                    sys.stdout.buffer.write(r.output if r.output is not None else stdin_bytes())
                    sys.stdout.buffer.flush()
                results.append(r)
                bar.update(done)
    except Terminated as exc:
        bar.close()
        if "-" in files and not args.diff and not any(r.path == "-" for r in results):
            sys.stdout.buffer.write(stdin_bytes())  # a filter never loses its input
            sys.stdout.buffer.flush()
        return terminated(exc, done, len(files), fixing=not args.diff)
    bar.close()
    status = print_errors(results, fixing=True, stdin_name=args.stdin_filename)
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
                shown = args.stdin_filename if r.path == "-" and args.stdin_filename else rel(
                    r.path)
                print(f"{shown}:{d.line}:{d.column + 1}: {d.code} {d.message}", file=out)
        hidden = sum(1 for r, d in remaining if d.fix and not d.fix.is_safe and not unsafe
                     and not r.cells)  # notebooks are not fixed
        print(f"{len(remaining)} diagnostic(s) remain"
              + (f"; {hidden} fixable with --unsafe-fixes" if hidden else "") + ".", file=out)
    if status:
        return status
    if any(r.failed for r in results):
        return 1
    if args.exit_zero:
        return 0
    if args.diff:
        return 1 if applied or remaining else 0
    return 1 if remaining or any(r.syntax_error for r in results) else 0
