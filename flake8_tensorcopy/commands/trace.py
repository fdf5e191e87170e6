"""``tensorcopy trace script.py [args...]`` (or ``-m module``): run a program under the runtime
watcher, like ``python -m cProfile``, then report the rules' patterns it showed, one entry per
site with its count, to stderr (the program owns stdout) or to ``--output``.

Exit status: the program's own when it fails; else 1 when there are findings, 0 when none; 2 for
a usage error (a missing script or module). Importing this module does not import torch.
"""
from __future__ import annotations

import argparse
import os
import sys
import traceback

from .common import add_code_options, codes

FORMATS = ("text", "concise", "json", "github", "sarif")


def add_parser(sub) -> None:
    p = sub.add_parser(
        "trace", help="run a script under the runtime watcher and report what it did",
        description="Run a Python script (or -m module) under the runtime watcher and report "
                    "each rule's pattern as it happened: site, count and what was observed.",
        epilog="Exit status: the script's own when it fails, else 1 with findings, 0 without, "
               "2 for a usage error.")
    p.add_argument("--output-format", default="text", choices=list(FORMATS),
                   help="text (default), concise, json (check's schema plus count and observed), "
                        "github, sarif")
    p.add_argument("--output", metavar="PATH",
                   help="write the report here instead of standard error")
    p.add_argument("--compare", action="store_true",
                   help="lint the files that ran with `check` and mark each finding as also "
                        "flagged statically or runtime only; list static diagnostics on lines "
                        "that ran without showing the pattern")
    add_code_options(p)
    p.add_argument("--include-libraries", action="store_true",
                   help="also report patterns in installed packages and the standard library")
    p.add_argument("-m", dest="module", metavar="MODULE", help="run a library module as a script")
    p.add_argument("argv", nargs=argparse.REMAINDER, metavar="script.py [args ...]",
                   help="the script and its arguments")
    p.set_defaults(func=run)


def _exit_code(exc: SystemExit) -> int:
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _print_exception(exc: BaseException) -> None:
    """The traceback as python prints it, without this tool's and runpy's frames."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep

    def ours(fs) -> bool:
        return fs.filename.startswith(here) or fs.filename.endswith("runpy.py") or \
            fs.filename.startswith("<frozen runpy")

    te = traceback.TracebackException(type(exc), exc, exc.__traceback__)
    seen = set()
    node = te
    while node is not None and id(node) not in seen:
        seen.add(id(node))
        node.stack = traceback.StackSummary.from_list([fs for fs in node.stack if not ours(fs)])
        node = node.__cause__ or node.__context__
    sys.stderr.write("".join(te.format()))


def run(args: argparse.Namespace) -> int:
    argv = list(args.argv)
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if args.module:
        target, script_argv = args.module, [args.module] + argv
        import importlib.util

        try:
            found = importlib.util.find_spec(args.module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            print(f"tensorcopy: error: {args.module}: no module named {args.module!r}",
                  file=sys.stderr)
            return 2
    else:
        if not argv:
            print("tensorcopy: error: trace needs a script (or -m module)", file=sys.stderr)
            return 2
        target, script_argv = argv[0], argv
        if not os.path.exists(target):
            print(f"tensorcopy: error: {target}: no such file or directory", file=sys.stderr)
            return 2
        if os.path.isdir(target) and not os.path.exists(os.path.join(target, "__main__.py")):
            print(f"tensorcopy: error: {target}: is a directory with no __main__.py",
                  file=sys.stderr)
            return 2
    if args.output:
        try:
            open(args.output, "a").close()
        except OSError as exc:
            print(f"tensorcopy: error: {args.output}: cannot write: {exc.strerror or exc}",
                  file=sys.stderr)
            return 2
    select, ignore = codes(args.select), codes(args.ignore)
    try:
        from ..runtime.watcher import Watcher, library_dirs, OWN_DIR, TORCH_DIR
    except ImportError as exc:  # pragma: no cover - torch missing
        print(f"tensorcopy: error: trace needs torch: {exc}", file=sys.stderr)
        return 2
    from ..runtime import report

    index = report.StaticIndex(select, ignore) if args.compare else None
    tracer = None
    if index is not None:
        skip = (TORCH_DIR, OWN_DIR) + (() if args.include_libraries else library_dirs())
        tracer = report.LineTracer(index, skip)
    watcher = Watcher(args.include_libraries)
    status, traced = _execute(args.module, target, script_argv, watcher, tracer)
    results = report.build(watcher.findings(), select, ignore)
    if index is not None:
        results = report.compare(results, index, tracer.ran if traced else None)
    text = report.render(args.output_format, results, compared=index is not None,
                         traced_lines=traced)
    n = sum(len(r.diagnostics) for r in results)
    if args.output_format == "text":
        occ = sum(s.count for r in results for s in r.sites)
        tail = (f"tensorcopy trace: {n} site(s), {occ} occurrence(s)" if n
                else "tensorcopy trace: no findings")
        text = (text + "\n" + tail) if text else tail
    if watcher.error:
        text += f"\ntensorcopy trace: the watcher stopped early ({watcher.error})"
    try:
        sys.stdout.flush()
    except Exception:  # pragma: no cover
        pass
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    else:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
    if status:
        return status
    return 1 if n else 0


def _execute(module, target, script_argv, watcher, tracer):
    """Run the program as ``__main__`` under the watcher; (its exit status, lines traced?)."""
    import runpy

    old_argv, old_path0 = sys.argv, sys.path[0] if sys.path else None
    sys.argv = list(script_argv)
    if module:
        sys.path.insert(0, os.getcwd())
    else:
        sys.path.insert(0, os.path.dirname(os.path.abspath(target)))
    status, traced = 0, False
    watcher.start()
    if tracer is not None:
        traced = tracer.start()
    try:
        if module:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(target, run_name="__main__")
    except SystemExit as exc:
        status = _exit_code(exc)
    except KeyboardInterrupt:
        status = 130
    except BaseException as exc:  # the script's own failure: report it as python would
        _print_exception(exc)
        status = 1
    finally:
        if tracer is not None:
            tracer.stop()
        watcher.stop()
        sys.argv = old_argv
        if sys.path and old_path0 is not None:
            try:
                sys.path.pop(0)
            except IndexError:  # pragma: no cover
                pass
    return status, traced
