"""``tensorcopy check | fix | verify | rules | explain`` (also ``python -m flake8_tensorcopy``).

Exit codes (as ruff): 0 nothing remains, 1 diagnostics remain, 2 usage error or unreadable input.
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import signal
import sys
import threading
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

from . import __version__
from .config import Config, ConfigError, discover
from .diagnostics import Diagnostic, selected
from .engine import LintError, analyze, filter_noqa as _noqa_filter
from .files import iter_files
from .rules import ALL_RULES, RULES_BY_CODE
from .source import SourceError, decode

class Budget(Exception):
    """A file took longer than the per-file time budget."""


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


def _guarded(fn, path: str, budget: float, *args):
    """Run ``fn(path, *args)`` (which returns ``(result, patch)``) within the budget; a blown
    budget or an internal error becomes a per-file error result instead of a traceback."""
    try:
        with time_budget(budget):
            return fn(path, *args)
    except Budget:
        out = FileResult(path, error=f"analysis exceeded the {budget:g} s per-file budget; skipped")
    except RecursionError:
        out = FileResult(path, error="nested too deeply to analyse; skipped")
    except MemoryError:
        out = FileResult(path, error="out of memory while analysing; skipped")
    return out, None


@dataclass
class FileResult:
    path: str
    diagnostics: List[Diagnostic] = field(default_factory=list)
    error: Optional[str] = None  # unreadable input (exit 2)
    syntax_error: Optional[str] = None  # does not parse (reported, left untouched)
    applied: Counter = field(default_factory=Counter)
    source: Optional[str] = None
    cells: Optional[list] = None  # notebooks: [(cell index, first line in joined source)]


def _read(path: str) -> Tuple[Optional[object], Optional[str]]:
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
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
    result = FileResult(path)
    if path.endswith(".ipynb"):
        from .notebook import lint_notebook

        return lint_notebook(path, cfg, select, ignore, result)
    decoded, error = _read(path)
    if error:
        result.error = error
        return result
    return lint_text(result, decoded.text, cfg, select, ignore)  # type: ignore[union-attr]


def lint_text(result: FileResult, text: str, cfg: Config, select: Sequence[str],
              ignore: Sequence[str]) -> FileResult:
    """Fill ``result`` with the selected, noqa-filtered diagnostics of ``text``."""
    result.source = text
    try:
        diags = analyze(text, cfg.settings())
    except LintError as exc:
        result.syntax_error = str(exc)
        return result
    ign = list(ignore) + cfg.ignored_for(result.path)
    result.diagnostics = _noqa_filter([d for d in diags if selected(d.code, select, ign)], text)
    return result


# ----------------------------------------------------------------------------- output formats
def _rel(path: str) -> str:
    if path == "-":
        return path
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def format_text(results: List[FileResult], concise: bool) -> List[str]:
    out = []
    for r in results:
        for d in r.diagnostics:
            fixable = ""
            if not concise and d.fix is not None:
                fixable = " [*]" if d.fix.is_safe else " [unsafe fix]"
            loc = _location(r, d)
            out.append(f"{_rel(r.path)}:{loc}: {d.code} {d.message}{fixable}")
    return out


def _location(r: FileResult, d: Diagnostic) -> str:
    if r.cells:
        cell, line = _cell_of(r, d.line)
        return f"cell {cell}:{line}:{d.column + 1}"
    return f"{d.line}:{d.column + 1}"


def _cell_of(r: FileResult, line: int) -> Tuple[int, int]:
    cell, first = r.cells[0]
    for c, f in r.cells:
        if f <= line:
            cell, first = c, f
    return cell, line - first + 1


def _fix_json(d: Diagnostic) -> Optional[dict]:
    if d.fix is None:
        return None
    return {
        "applicability": d.fix.safety,
        "message": d.fix.description,
        "edits": [{"start": e.start, "end": e.end, "content": e.text} for e in d.fix.edits],
    }


def format_json(results: List[FileResult]) -> str:
    items = []
    for r in results:
        for d in r.diagnostics:
            item = {
                "code": d.code,
                "message": d.message,
                "filename": r.path,
                "location": {"row": d.line, "column": d.column + 1},
                "end_location": {"row": d.end_line, "column": d.end_column + 1},
                "fix": _fix_json(d),
                "url": _doc_url(d.code),
            }
            if r.cells:
                item["cell"] = _cell_of(r, d.line)[0]
            items.append(item)
    return json.dumps(items, indent=2)


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def format_github(results: List[FileResult]) -> List[str]:
    out = []
    for r in results:
        for d in r.diagnostics:
            out.append(
                f"::warning file={_gh_escape(_rel(r.path), True)},line={d.line},col={d.column + 1},"
                f"endLine={d.end_line},endColumn={d.end_column + 1},"
                f"title={_gh_escape(d.code, True)}::{_gh_escape(d.code + ' ' + d.message)}")
    return out


def _doc_url(code: str) -> str:
    from .docs import doc_url

    return doc_url(code)


def format_sarif(results: List[FileResult]) -> str:
    from .sarif import to_sarif

    return json.dumps(to_sarif(results), indent=2)


# ----------------------------------------------------------------------------------- commands
def _progress(done: int, total: int) -> None:
    if total >= 200 and sys.stderr.isatty():
        sys.stderr.write(f"\r{done}/{total} files")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _collect(paths: Sequence[str], cfg: Config, exclude: Sequence[str],
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


def _codes(values: Optional[Sequence[str]]) -> Optional[List[str]]:
    if values is None:
        return None
    out = []
    for v in values:
        out.extend(p.strip().upper() for p in v.split(",") if p.strip())
    return out


def _print_errors(results: List[FileResult]) -> int:
    status = 0
    for r in results:
        if r.error:
            print(f"tensorcopy: error: {_rel(r.path)}: {r.error}", file=sys.stderr)
            status = 2
        elif r.syntax_error:
            print(f"tensorcopy: error: {_rel(r.path)}: {r.syntax_error}; file left unchanged",
                  file=sys.stderr)
    return status


def _work(task):
    """One file, in a worker process (or inline): lint or fix within the time budget."""
    mode, path, timeout, cfg, select, ignore, unsafe, diff = task
    if mode == "fix":
        r, patch = _guarded(fix_path, path, timeout, cfg, select, ignore, unsafe, diff)
    else:
        r, patch = _guarded(_lint_only, path, timeout, cfg, select, ignore)
    r.source = None  # not needed by any report; keeps what crosses processes small
    return r, patch


def _lint_only(path: str, cfg: Config, select, ignore) -> Tuple[FileResult, None]:
    return lint_path(path, cfg, select, ignore), None


#: below this many files a process pool costs more than it saves
_PARALLEL_MIN_FILES = 16


def _run_all(tasks, jobs: int):
    """Yield (result, patch) per task, in order; in parallel over processes when worth it."""
    jobs = jobs if jobs and jobs > 0 else (os.cpu_count() or 1)
    parallel = [t for t in tasks if t[1] != "-"]
    if jobs <= 1 or len(parallel) < _PARALLEL_MIN_FILES or len(parallel) != len(tasks):
        for t in tasks:
            yield _work(t)
        return
    import concurrent.futures as cf

    try:
        with cf.ProcessPoolExecutor(max_workers=jobs) as pool:
            yield from pool.map(_work, tasks, chunksize=max(1, min(32, len(tasks) // (jobs * 8))))
    except (OSError, cf.process.BrokenProcessPool) as exc:  # pragma: no cover - no processes here
        print(f"tensorcopy: warning: parallel run failed ({exc}); continuing in one process",
              file=sys.stderr)
        for t in tasks:
            yield _work(t)


def _options(args: argparse.Namespace, notebooks: bool):
    """Configuration merged with the command line, and the files to process."""
    cfg = discover(args.paths, args.config)
    select = _codes(args.select) or cfg.select
    ignore = _codes(args.ignore) or cfg.ignore
    unsafe = args.unsafe_fixes or cfg.unsafe_fixes
    files, results = _collect(args.paths, cfg, args.exclude or [], notebooks=notebooks)
    return cfg, select, ignore, unsafe, files, results


def cmd_check(args: argparse.Namespace) -> int:
    cfg, select, ignore, unsafe, files, results = _options(args, notebooks=True)
    fixed = 0
    tasks = [("fix" if args.fix and not p.endswith(".ipynb") and p != "-" else "check",
              p, args.timeout, cfg, select, ignore, unsafe, False) for p in files]
    for i, (r, _) in enumerate(_run_all(tasks, args.jobs), 1):
        fixed += sum(r.applied.values())
        if args.stdin_filename and r.path == "-":
            r.path = args.stdin_filename
        results.append(r)
        _progress(i, len(files))
    status = _print_errors(results)
    diags = sum(len(r.diagnostics) for r in results)
    fmt = args.output_format
    if fmt in ("text", "concise"):
        for line in format_text(results, fmt == "concise"):
            print(line)
        if fmt == "text":
            if args.statistics:
                _print_statistics(results)
            fixable = sum(1 for r in results for d in r.diagnostics if d.fix and d.fix.is_safe)
            if fixed:
                print(f"Fixed {fixed} diagnostic{'s' if fixed != 1 else ''}.")
            if diags:
                print(f"Found {diags} diagnostic{'s' if diags != 1 else ''} in "
                      f"{sum(1 for r in results if r.diagnostics)} file(s)"
                      + (f"; {fixable} fixable with `tensorcopy fix`." if fixable else "."))
            else:
                print(f"All checks passed ({len(files)} file{'s' if len(files) != 1 else ''}).")
    elif fmt == "json":
        print(format_json(results))
    elif fmt == "github":
        for line in format_github(results):
            print(line)
    elif fmt == "sarif":
        print(format_sarif(results))
    if fmt != "text" and args.statistics:
        _print_statistics(results, sys.stderr)
    if status:
        return status
    if any(r.syntax_error for r in results):
        return 1 if not args.exit_zero else 0
    return 1 if diags and not args.exit_zero else 0


def _print_statistics(results: List[FileResult], stream=None) -> None:
    counts = Counter(d.code for r in results for d in r.diagnostics)
    for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        rule = RULES_BY_CODE.get(code)
        print(f"{n:6d}\t{code}\t{rule.name if rule else ''}", file=stream or sys.stdout)


def fix_path(path: str, cfg: Config, select, ignore, unsafe: bool, diff: bool) -> Tuple[FileResult, Optional[str]]:
    """Fix one file; returns the result and, with ``diff``, its unified diff."""
    from .fixes import atomic_write, fix_source

    result = FileResult(path)
    decoded, error = _read(path)
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
    result.diagnostics = _noqa_filter(fixed.remaining, fixed.source)
    result.source = fixed.source
    if path == "-":
        if not diff:
            sys.stdout.buffer.write(decoded.encode(fixed.source))  # type: ignore[union-attr]
            sys.stdout.flush()
            return result, None
    if not fixed.changed:
        return result, None
    if diff:
        name = _rel(path)
        return result, "".join(difflib.unified_diff(
            text.splitlines(keepends=True), fixed.source.splitlines(keepends=True),
            f"a/{name}", f"b/{name}"))
    try:
        atomic_write(path, decoded.encode(fixed.source))  # type: ignore[union-attr]
    except OSError as exc:
        result.error = f"cannot write: {exc.strerror or exc}"
        result.applied = Counter()
    return result, None


def cmd_fix(args: argparse.Namespace) -> int:
    cfg, select, ignore, unsafe, files, results = _options(args, notebooks=False)
    tasks = [("fix", p, args.timeout, cfg, select, ignore, unsafe, args.diff) for p in files]
    for i, (r, patch) in enumerate(_run_all(tasks, args.jobs), 1):
        if patch:
            sys.stdout.write(patch)
        results.append(r)
        _progress(i, len(files))
    status = _print_errors(results)
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
                print(f"{_rel(r.path)}:{d.line}:{d.column + 1}: {d.code} {d.message}", file=out)
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


def cmd_rules(args: argparse.Namespace) -> int:
    from .docs import doc_url, summary

    if args.format == "json":
        print(json.dumps([
            {"code": r.code, "name": r.name, "summary": summary(r), "message": r.message,
             "fix": r.fix_safety, "url": doc_url(r.code)} for r in ALL_RULES], indent=2))
        return 0
    width = max(len(r.name) for r in ALL_RULES)
    for r in ALL_RULES:
        print(f"{r.code}  {r.name:<{width}}  fix: {r.fix_safety or 'none':<9}  {summary(r)}")
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from .docs import render

    rule = RULES_BY_CODE.get(args.code.upper())
    if rule is None:
        print(f"tensorcopy: error: unknown rule {args.code!r}; `tensorcopy rules` lists them",
              file=sys.stderr)
        return 2
    print(render(rule))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    try:
        from .verify.runner import main as verify_main
    except ImportError as exc:  # pragma: no cover
        print(f"tensorcopy: error: verify unavailable: {exc}", file=sys.stderr)
        return 2
    return verify_main(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tensorcopy",
        description="Find, fix and verify the ways PyTorch code copies tensors.",
        epilog="Exit status: 0 nothing to report, 1 diagnostics remain (or a claim failed), "
               "2 usage error or unreadable input. `tensorcopy COMMAND --help` for details.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def common(p: argparse.ArgumentParser) -> None:
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

    p = sub.add_parser("check", help="report diagnostics (no flake8 needed)",
                       description="Report tensor-copy diagnostics.")
    common(p)
    p.add_argument("--output-format", default="text",
                   choices=["text", "concise", "json", "github", "sarif"],
                   help="text (default), concise, json, github (workflow annotations), sarif")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when diagnostics remain")
    p.add_argument("--statistics", action="store_true", help="count diagnostics per code")
    p.add_argument("--stdin-filename", metavar="PATH", help="name to report for `-`")
    p.add_argument("--fix", action="store_true",
                   help="apply safe fixes first, then report what remains (as ruff's --fix)")
    p.add_argument("--unsafe-fixes", action="store_true", help="with --fix: unsafe fixes too")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("fix", help="apply fixes in place (safe ones unless --unsafe-fixes)",
                       description="Rewrite files with the fixes; writes are atomic.")
    common(p)
    p.add_argument("--unsafe-fixes", action="store_true", help="also apply unsafe fixes")
    p.add_argument("--diff", action="store_true", help="print a unified diff, write nothing")
    p.add_argument("--show-remaining", action="store_true",
                   help="list diagnostics left after fixing")
    p.add_argument("--exit-zero", action="store_true",
                   help="exit 0 even when diagnostics remain (errors still exit 2)")
    p.set_defaults(func=cmd_fix)

    p = sub.add_parser("rules", help="list the rules")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("explain", help="print a rule's documentation (e.g. TEN101)")
    p.add_argument("code")
    p.set_defaults(func=cmd_explain)

    p = sub.add_parser("verify", help="run every rule's claims on the installed torch",
                       description="Execute each rule's semantic, fix-equivalence and speed claims.")
    p.add_argument("--device", choices=["cpu", "cuda", "all"], default="all",
                   help="cpu, cuda, or all available (default)")
    p.add_argument("--rule", action="append", metavar="CODE", help="only this rule (repeatable)")
    p.add_argument("--quick", action="store_true",
                   help="all semantic and fix claims, and a reduced speed check (< 1 min on 2 cores)")
    p.add_argument("--format", choices=["text", "json", "markdown"], default="text")
    p.add_argument("--output", metavar="FILE", help="write the report here instead of stdout")
    p.set_defaults(func=cmd_verify)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except ConfigError as exc:
        print(f"tensorcopy: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # pragma: no cover
        print("tensorcopy: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # pragma: no cover
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
