"""``tensorcopy trace script.py [args...]`` (or ``-m module``): run a program under the runtime
watcher, like ``python -m cProfile``, then report the rules' patterns it showed, one entry per
site with its count, to stderr (the program owns stdout) or to ``--output``.

The program runs as ``__main__`` exactly as ``python`` runs it (``runtime/runner.py``: path,
``-m``, ``sys.argv``, ``sys.excepthook``, ``atexit``, threads, signals), and the watcher starts
only when the program imports torch itself. The report is written from an ``atexit`` handler
registered before the program's, so once the program is over (its threads joined, its own
handlers run), as coverage.py saves its data.

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
import atexit
import os
import signal
import sys
import time
from typing import Optional

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
    p.add_argument("--mode", action="store_true",
                   help="watch through a TorchFunctionMode that every torch call enters, instead "
                        "of the default hooks on only the calls the rules need (slower on short "
                        "steps, and visible to the program: its frame in tracebacks and "
                        "profiles; see docs/runtime-overhead.md)")
    p.add_argument("--fast", action="store_true",
                   help="the default mechanism (hooks on only the calls the rules need); kept "
                        "for scripts written when it was not the default")
    p.add_argument("--include-libraries", action="store_true",
                   help="also report patterns in installed packages and the standard library")
    p.add_argument("-m", dest="module", metavar="MODULE", help="run a library module as a script")
    p.add_argument("argv", nargs=argparse.REMAINDER, metavar="script.py [args ...]",
                   help="the script and its arguments")
    p.set_defaults(func=run)


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
    from ..runtime.places import torch_dir
    from ..runtime.runner import Target, excepthook

    if not torch_dir():  # pragma: no cover - torch missing
        print("tensorcopy: error: trace needs torch, which is not installed", file=sys.stderr)
        return 2
    program = Target(args.module, None if args.module else target, script_argv)
    try:
        program.prepare()
    except (ImportError, SyntaxError, OSError, ValueError) as exc:  # as python reports them
        exc.__traceback__ = None
        excepthook(exc)
        return 1
    session = _Session(args)
    atexit.register(session.at_exit)  # before the program's own: runs after them
    session.watch.start()
    outcome = program.run()
    session.outcome = outcome
    return _finish(outcome)


class _Session:
    """One traced run: starts the watcher when the program imports torch, and reports from an
    ``atexit`` handler registered before the program's, so once the program is over (its
    threads joined, its own ``atexit`` handlers run), as coverage.py saves its data."""

    def __init__(self, args: argparse.Namespace) -> None:
        # imported now, before the program's folder is first on sys.path: a module of the
        # program's named like one of the standard library's is not picked up at exit
        from ..runtime import parts, report
        from ..runtime.session import Watch

        self.args = args
        self.select, self.ignore = codes(args.select), codes(args.ignore)
        self.job = parts.job_from_env()
        self.started = time.time()
        self.pid = os.getpid()
        self.index = report.StaticIndex(self.select, self.ignore) if args.compare else None
        self.watch = Watch(include_libraries=args.include_libraries, mode=args.mode,
                           index=self.index)
        self.outcome: Optional[BaseException] = None

    def at_exit(self) -> None:
        if os.getpid() != self.pid:  # a forked child of the program: nothing to report
            return
        try:
            self.watch.stop()
            n = self._report()
        except Exception as exc:  # pragma: no cover - never a traceback at the program's exit
            print(f"tensorcopy: error: the trace report failed ({type(exc).__name__}: {exc})",
                  file=sys.stderr)
            n = 0
        outcome, args = self.outcome, self.args
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:  # pragma: no cover
            pass
        if args.fail_on_findings and n > 0 and _succeeded(outcome):
            os._exit(1)
        if isinstance(outcome, KeyboardInterrupt) and hasattr(signal, "SIGINT") \
                and hasattr(os, "kill"):
            # python ends a program stopped by Ctrl-C by SIGINT, after its atexit handlers
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)

    def _report(self) -> int:
        """Write the report; the number of sites reported."""
        from ..runtime import parts, report

        args, job, watch = self.args, self.job, self.watch
        sites, error = watch.findings(), watch.error
        lines = []
        if job is not None:
            folder, part, expected = parts.plan(job, args.output)
            payload = {"rank": job.rank, "job": job.key, "started": self.started,
                       "sites": [s.to_dict() for s in sites], "error": error}
            try:
                parts.write_part(folder, part, payload)
            except OSError as exc:
                print(f"tensorcopy: warning: rank {job.rank}: cannot write the report part: "
                      f"{exc}", file=sys.stderr)
            if part != 0:
                return sum(1 for s in sites if selected(s.code, self.select, self.ignore))
            got, missing = parts.collect(folder, expected, self.started, job.key)
            if part not in got:  # our own part could not be written: report what we saw
                got[part] = payload
            sites = report.merge((p.get("rank"), p.get("sites") or []) for _, p in
                                 sorted(got.items()))
            lines.append(f"tensorcopy trace: one report for {len(got)} of {expected} rank(s)"
                         + (f"; no report from part(s) {', '.join(map(str, missing))} (not "
                            f"finished within the wait)" if missing else ""))
        results = report.build(sites, self.select, self.ignore)
        if self.index is not None:
            results = report.compare(results, self.index,
                                     watch.tracer.ran if watch.traced else None)
        text = report.render(args.output_format, results, compared=self.index is not None,
                             traced_lines=watch.traced)
        n = sum(len(r.diagnostics) for r in results)
        if args.output_format == "text":
            occ = sum(s.count for r in results for s in r.sites)
            tail = (f"tensorcopy trace: {n} site(s), {occ} occurrence(s)" if n
                    else "tensorcopy trace: no findings")
            text = "\n".join([text] * bool(text) + lines + [tail])
        elif lines:  # the merge's own note, beside a report in another format
            print("\n".join(lines), file=sys.stderr)
        if error:
            note = f"tensorcopy trace: the watcher stopped early ({error})"
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
        return n


def _succeeded(outcome) -> bool:
    if outcome is None:
        return True
    if isinstance(outcome, SystemExit):
        code = outcome.code
        return code is None or (isinstance(code, int) and code == 0)
    return False


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


def _finish(outcome) -> int:
    """The exit status the program would have had without the watcher. A ``SystemExit`` is
    raised again, so that Python itself turns its code into the status (None, out-of-range
    ints, strings printed...); an unhandled exception (already handed to ``sys.excepthook``) is
    1, and a ``KeyboardInterrupt`` ends the process by SIGINT after the ``atexit`` handlers
    (``_Session.at_exit``), as Python does."""
    if isinstance(outcome, SystemExit):
        raise outcome.with_traceback(None)
    return 0 if outcome is None else 1
