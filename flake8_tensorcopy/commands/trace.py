"""``tensorcopy trace script.py [args...]`` (or ``-m module``): run a program under the runtime
watcher, like ``python -m cProfile``, then report the rules' patterns it showed, one entry per
site with its count, to stderr (the program owns stdout) or to ``--output``.

Exit status: the program's own, exactly as Python would give it without the watcher (a
``SystemExit`` is raised again for Python to turn into the status; forked children of the program
end as they would have, and report nothing); with ``--fail-on-findings``, 1 when the program
succeeded but showed a finding; 2 for a usage error (a missing script or module). Under a
distributed launcher (``RANK``/``WORLD_SIZE`` set, as ``torchrun`` does) each rank writes its
sites as a part and one rank writes the one merged report (``runtime/parts.py``). Importing this
module does not import torch.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
import time
import traceback

from ..diagnostics import selected
from .common import add_code_options, codes

FORMATS = ("text", "concise", "json", "github", "sarif")


def add_parser(sub) -> None:
    p = sub.add_parser(
        "trace", help="run a script under the runtime watcher and report what it did",
        description="Run a Python script (or -m module) under the runtime watcher and report "
                    "each rule's pattern as it happened: site, count and what was observed.",
        epilog="Exit status: the program's own, exactly as without the watcher (findings "
               "change it only with --fail-on-findings); 2 for a usage error. Under torchrun "
               "and other launchers that set RANK/WORLD_SIZE, one merged report for the job.")
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
    p.add_argument("--fail-on-findings", action="store_true",
                   help="exit 1 when the program succeeds but showed a finding (default: the "
                        "program's own exit status, whatever was found)")
    p.add_argument("--fast", action="store_true",
                   help="watch through hooks on only the calls the rules need instead of a "
                        "TorchFunctionMode (far cheaper on short steps; while the program runs, "
                        "torch.tensor, torch.clone and torch.*_like are wrappers, and a "
                        "detach() alias's read-after-write is seen only when no other "
                        "TorchFunctionMode is active: see docs/runtime-overhead.md)")
    p.add_argument("--include-libraries", action="store_true",
                   help="also report patterns in installed packages and the standard library")
    p.add_argument("-m", dest="module", metavar="MODULE", help="run a library module as a script")
    p.add_argument("argv", nargs=argparse.REMAINDER, metavar="script.py [args ...]",
                   help="the script and its arguments")
    p.set_defaults(func=run)


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
        problem = _unwritable(args.output)
        if problem:
            print(f"tensorcopy: error: {args.output}: cannot write: {problem}", file=sys.stderr)
            return 2
    select, ignore = codes(args.select), codes(args.ignore)
    try:
        from ..runtime.watcher import Watcher, library_dirs, OWN_DIR, TORCH_DIR
    except ImportError as exc:  # pragma: no cover - torch missing
        print(f"tensorcopy: error: trace needs torch: {exc}", file=sys.stderr)
        return 2
    from ..runtime import parts, report

    job = parts.job_from_env()
    started = time.time()
    index = report.StaticIndex(select, ignore) if args.compare else None
    tracer = None
    if index is not None:
        skip = (TORCH_DIR, OWN_DIR) + (() if args.include_libraries else library_dirs())
        tracer = report.LineTracer(index, skip)
    watcher = Watcher(args.include_libraries, fast=args.fast)
    pid = os.getpid()
    outcome, traced = _execute(args.module, target, script_argv, watcher, tracer)
    if os.getpid() != pid:  # a forked child of the program ends as it would without the watcher
        return _finish(outcome)
    sites = watcher.findings()
    lines = []
    if job is not None:
        folder, part, expected = parts.plan(job, args.output)
        payload = {"rank": job.rank, "job": job.key, "started": started,
                   "sites": [s.to_dict() for s in sites], "error": watcher.error}
        try:
            parts.write_part(folder, part, payload)
        except OSError as exc:
            print(f"tensorcopy: warning: rank {job.rank}: cannot write the report part: "
                  f"{exc}", file=sys.stderr)
        if part != 0:
            n = sum(1 for s in sites if selected(s.code, select, ignore))
            return _finish(outcome, args.fail_on_findings and n > 0)
        got, missing = parts.collect(folder, expected, started, job.key)
        if part not in got:  # our own part could not be written: report what we saw
            got[part] = payload
        sites = report.merge((p.get("rank"), p.get("sites") or []) for _, p in
                             sorted(got.items()))
        lines.append(f"tensorcopy trace: one report for {len(got)} of {expected} rank(s)"
                     + (f"; no report from part(s) {', '.join(map(str, missing))} (not "
                        f"finished within the wait)" if missing else ""))
    results = report.build(sites, select, ignore)
    if index is not None:
        results = report.compare(results, index, tracer.ran if traced else None)
    text = report.render(args.output_format, results, compared=index is not None,
                         traced_lines=traced)
    n = sum(len(r.diagnostics) for r in results)
    if args.output_format == "text":
        occ = sum(s.count for r in results for s in r.sites)
        tail = (f"tensorcopy trace: {n} site(s), {occ} occurrence(s)" if n
                else "tensorcopy trace: no findings")
        text = "\n".join([text] * bool(text) + lines + [tail])
    elif lines:  # the merge's own note, beside a report in another format
        print("\n".join(lines), file=sys.stderr)
    if watcher.error:
        note = f"tensorcopy trace: the watcher stopped early ({watcher.error})"
        if args.output_format == "text":
            text += "\n" + note
        else:  # keep the report parseable
            print(note, file=sys.stderr)
    try:
        sys.stdout.flush()
    except Exception:  # pragma: no cover
        pass
    if args.output:
        report.write_report(args.output, text + "\n")
    else:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
    return _finish(outcome, args.fail_on_findings and n > 0)


def _unwritable(path: str) -> str:
    """Why ``path`` cannot take the report ('' when it can); opens nothing (a FIFO would block,
    and the report must not leave an empty file behind when the run fails)."""
    if os.path.isdir(path):
        return "is a directory"
    if os.path.exists(path):
        return "" if os.access(path, os.W_OK) else "permission denied"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"no such directory: {folder}"
    return "" if os.access(folder, os.W_OK | os.X_OK) else "permission denied"


def _finish(outcome, fail: bool = False) -> int:
    """The exit status the program would have had without the watcher (``fail``: 1 instead of
    a success, for ``--fail-on-findings``). A ``SystemExit`` is raised again, so that Python
    itself turns its code into the status (None, out-of-range ints, strings printed...); an
    unhandled ``KeyboardInterrupt`` ends the process by SIGINT, as Python does."""
    if isinstance(outcome, SystemExit):
        code = outcome.code
        if fail and (code is None or (isinstance(code, int) and code == 0)):
            return 1
        raise outcome.with_traceback(None)
    if isinstance(outcome, KeyboardInterrupt):
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:  # pragma: no cover
            pass
        if hasattr(signal, "SIGINT") and hasattr(os, "kill"):
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
        return 130  # pragma: no cover - the signal ended the process
    if outcome is not None:
        return 1
    return 1 if fail else 0


def _execute(module, target, script_argv, watcher, tracer):
    """Run the program as ``__main__`` under the watcher; (how it ended: None, or the exception
    that ended it, lines traced?)."""
    import runpy

    old_argv, old_path0 = sys.argv, sys.path[0] if sys.path else None
    sys.argv = list(script_argv)
    if module:
        sys.path.insert(0, os.getcwd())
    else:
        sys.path.insert(0, os.path.dirname(os.path.abspath(target)))
    outcome, traced = None, False
    watcher.start()
    if tracer is not None:
        traced = tracer.start()
    try:
        if module:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(target, run_name="__main__")
    except SystemExit as exc:
        outcome = exc
    except KeyboardInterrupt as exc:
        _print_exception(exc)
        outcome = exc
    except BaseException as exc:  # the script's own failure: report it as python would
        _print_exception(exc)
        outcome = exc
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
    return outcome, traced
