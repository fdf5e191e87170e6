"""``tensorcopy fix --prove CMD``: apply the fixes that the user's own test command shows to
change nothing, and only those that it ran.

1. The candidates are the fixes one round of ``fix`` would apply (``fixes.fix_candidates``:
   safe ones, with ``--unsafe-fixes`` the unsafe ones too), each a diagnostic with its edits.
2. CMD runs twice on the unchanged tree (the baseline). Where CMD runs pytest (any pytest it
   starts: ``python -m pytest``, a script, tox), the outcome is node id -> outcome, through a
   plugin loaded by ``PYTEST_PLUGINS`` (``prove_probe``); otherwise the exit status and a
   digest of standard output. Tests whose outcome differs between the two runs are flaky:
   named and left out of every comparison (a non-pytest CMD whose outcome differs cannot prove
   anything: refused).
3. All candidates are applied as one batch on top of the fixes kept so far; a batch whose
   outcome equals the baseline is kept, one that differs is split in halves and each tried
   (the second half without a run when the first was kept whole: its trial is the batch's),
   down to single fixes, which are reverted and reported with the tests they changed.
4. Each run records which of the fixed lines (in the files as fixed for that run) ran, by the
   probe that a ``sitecustomize`` on ``PYTHONPATH`` starts in every Python process CMD makes
   (``sys.monitoring`` on 3.12+, ``sys.settrace`` before; see ``prove_probe``). A kept fix whose
   lines ran in a kept run is proven; the others are "not exercised" and reverted, CMD then
   running once more on what stays, which must still match (``--keep-unexercised``: kept).
5. A CMD that cannot start, runs past ``--prove-timeout``, or a run stopped by SIGINT, SIGTERM
   or SIGHUP: CMD's process group is ended and every file is written back byte for byte
   (a file someone else changed meanwhile is left as it is, and named). A git working tree with
   uncommitted changes under the paths is refused unless ``--allow-dirty``.

Every write goes through ``writes.write_fixed`` (atomic); a rewritten file's mtime is moved on
by at least a second past its previous one, so that Python never takes a cached ``.pyc`` of
another version of it (the cache checks whole seconds and the size; ``t.clone().detach()`` ->
``t.detach().clone()`` keeps the size).
"""
from __future__ import annotations

import argparse
import bisect
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

from ..lint import LintError, read_source
from ..progress import Progress
from ..syntax.source import line_starts
from ..writes import Unchanged, atomic_write, writable, write_fixed
from . import prove_probe
from .common import Terminated, options, print_errors, timeout, tree_roots
from .prove_report import Change, report

PROBE = "tensorcopy_prove_probe"
#: with no --prove-timeout: a run after the baseline may take this many times the slower
#: baseline run, and at least MIN_LIMIT seconds
LIMIT_FACTOR = 10.0
MIN_LIMIT = 60.0
#: after SIGTERM, how long CMD's processes get before SIGKILL
GRACE = 2.0
SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))


def add_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group(
        "proving fixes on your tests (--prove)",
        "Apply only fixes that CMD (your test command) ran and whose outcomes stay as on the "
        "unchanged tree: CMD runs twice first (tests whose outcome differs are flaky and left "
        "out), then on batches of fixes; a batch that changes an outcome is split until each "
        "fix that does is isolated and reverted. Per-test outcomes where CMD runs pytest, else "
        "exit status and standard output. Stopped, timed out or failing to start: every file "
        "is written back as it was.")
    g.add_argument("--prove", metavar="CMD",
                   help='prove the fixes on CMD, a shell command (e.g. "pytest -q tests/")')
    g.add_argument("--prove-timeout", type=timeout, metavar="SECONDS",
                   help="stop (restoring every file) when a run of CMD takes longer (default: "
                        "none for the two baseline runs, then 10 times the slower one, at "
                        "least 60 s; 0 for none)")
    g.add_argument("--keep-unexercised", action="store_true",
                   help="also keep fixes whose lines CMD never ran (not proven)")
    g.add_argument("--allow-dirty", action="store_true",
                   help="run even if the git working tree has uncommitted changes (or is not "
                        "a git working tree)")
    g.add_argument("--output-format", choices=("text", "json"), default="text",
                   help="the --prove report's format (default text)")


def misuse(args: argparse.Namespace) -> Optional[str]:
    """Why the command line cannot run (the --prove options without --prove, or --prove with
    what it cannot do), else None."""
    if args.prove is None:
        extra = [o for o, on in (("--prove-timeout", args.prove_timeout is not None),
                                 ("--keep-unexercised", args.keep_unexercised),
                                 ("--allow-dirty", args.allow_dirty),
                                 ("--output-format", args.output_format != "text")) if on]
        return f"{', '.join(extra)} only go with --prove" if extra else None
    if not args.prove.strip():
        return "--prove needs a command"
    if args.diff or "-" in args.paths or args.stdin_filename:
        return "--prove rewrites files in place: not with --diff or standard input"
    return None


@dataclass
class Candidate:
    index: int
    path: str
    diag: object  # a Diagnostic with a fix


@dataclass
class Source:
    """A file with candidates: what it held, and every version written to it."""
    path: str
    real: str
    decoded: object
    candidates: List[Candidate] = field(default_factory=list)
    current: bytes = b""
    written: List[bytes] = field(default_factory=list)
    mtime: float = 0.0  # the original's
    stamp: int = 0  # the whole seconds of the last mtime set


@dataclass
class Outcome:
    kind: str  # "pytest" or "exit"
    tests: Dict[str, str]
    status: int
    digest: str
    hits: Set[Tuple[str, int]]
    seconds: float
    probed: bool  # the probe ran in at least one of CMD's processes


class ProveError(Exception):
    """The run cannot go on; the message says why (files are restored by the caller)."""


def run(args: argparse.Namespace) -> int:
    started = time.monotonic()
    cfg, select, ignore, unsafe, files, results = options(args, notebooks=False)
    dirty = None if args.allow_dirty else uncommitted(args.paths)
    if dirty:
        print(f"tensorcopy: error: {dirty}; commit or stash first, or pass --allow-dirty "
              "(--prove rewrites the files many times)", file=sys.stderr)
        return 2
    bar = Progress(len(files), "files planned", args.progress)
    try:
        sources, cands = plan(files, cfg, select, ignore, unsafe, results,
                              tree_roots(args.paths), bar)
    finally:
        bar.close()
    status = print_errors(results, fixing=True)
    prover = Prover(args, sources, cands, tree_roots(args.paths))
    try:
        with stopping(), prover:
            if cands:
                prover.prove()
    except Terminated as exc:
        return prover.abort(f"stopped by {signal.Signals(exc.signum).name}", 128 + exc.signum)
    except ProveError as exc:
        return prover.abort(str(exc), 2)
    sys.stdout.write(report(args, prover, time.monotonic() - started))
    sys.stdout.flush()
    if status:
        return status
    left = prover.rejected or (prover.unexercised and not args.keep_unexercised)
    return 1 if left else 0


def plan(files, cfg, select, ignore, unsafe, results, roots, bar: Progress
         ) -> Tuple[List[Source], List[Candidate]]:
    """The files with candidate fixes, and the candidates in file and position order; a file
    that ``fix`` would leave alone (read-only, a link out of the tree...) is left out, with a
    warning in ``results``."""
    from ..fixes import fix_candidates  # the engine: only when --prove runs
    from ..lint import FileResult

    sources, cands = [], []
    for done, path in enumerate(files, 1):
        bar.update(done, path)
        if path.endswith(".ipynb"):
            continue
        decoded, error = read_source(path)
        if error:
            results.append(FileResult(path, error=error))
            continue
        try:
            fixes = fix_candidates(decoded.text, cfg, path, unsafe=unsafe,  # type: ignore
                                   select=select, ignore=ignore)
        except LintError as exc:
            results.append(FileResult(path, syntax_error=str(exc)))
            continue
        if not fixes:
            continue
        try:
            writable(path, roots)
        except Unchanged as exc:
            results.append(FileResult(path, notes=[f"{exc}; its {len(fixes)} fix(es) not "
                                                   "tried"]))
            continue
        real = os.path.realpath(path)
        src = Source(path, real, decoded, current=decoded.raw)  # type: ignore[union-attr]
        try:
            src.mtime = os.stat(real).st_mtime
        except OSError:
            src.mtime = time.time()
        for d in sorted(fixes, key=lambda d: (d.line, d.column)):
            c = Candidate(len(cands), path, d)
            src.candidates.append(c)
            cands.append(c)
        sources.append(src)
    return sources, cands


def uncommitted(paths) -> Optional[str]:
    """Why the tree under ``paths`` may not be rewritten (uncommitted changes, untracked files,
    not a git working tree), else None."""
    first = os.path.abspath(paths[0]) if paths else os.getcwd()
    base = first if os.path.isdir(first) else os.path.dirname(first)
    try:
        out = subprocess.run(["git", "status", "--porcelain", "--", *map(os.path.abspath, paths)],
                             cwd=base, capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"cannot tell whether the tree has uncommitted changes (git: {exc})"
    if out.returncode != 0:
        why = out.stderr.decode(errors="replace").strip().splitlines()
        return ("cannot tell whether the tree has uncommitted changes (not a git working "
                f"tree: {why[-1] if why else 'git status failed'})")
    lines = [ln for ln in out.stdout.decode(errors="replace").splitlines() if ln.strip()]
    if lines:
        return (f"the git working tree has uncommitted changes ({len(lines)} path(s), e.g. "
                f"{lines[0][3:]})")
    return None


@contextmanager
def stopping():
    """SIGINT, SIGTERM and SIGHUP raise Terminated (once: later ones are ignored, so that the
    files are restored)."""
    def stop(signum, frame):
        for s in SIGNALS:
            signal.signal(s, signal.SIG_IGN)
        raise Terminated(signum)

    old = {s: signal.signal(s, stop) for s in SIGNALS}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


class Prover:
    """One ``--prove`` run: the baseline, the batches, the files' versions, the report's facts."""

    def __init__(self, args, sources: List[Source], cands: List[Candidate], roots) -> None:
        self.cmd: str = args.prove
        self.limit: Optional[float] = args.prove_timeout or None
        self.fixed_limit = args.prove_timeout is not None
        self.keep_unexercised: bool = args.keep_unexercised
        self.sources = sources
        self.cands = cands
        self.roots = roots
        self.runs = 0
        self.baseline: Optional[Outcome] = None
        self.flaky: List[str] = []
        self.kept: Set[int] = set()
        self.exercised: Set[int] = set()
        self.rejected: Dict[int, List[Change]] = {}
        self.unexercised: List[int] = []
        self.final: Set[int] = set()
        self.bar = Progress(len(cands), "fixes settled", args.progress, min_items=1)
        self.tmp = ""
        self.started: List[subprocess.Popen] = []  # CMD's runs (ended again on abort)
        self.timings: List[Tuple[str, float]] = []  # each run's label and seconds

    # ---- set-up and tear-down -------------------------------------------------------------

    def __enter__(self) -> "Prover":
        self.tmp = tempfile.mkdtemp(prefix="tensorcopy-prove-")
        probe_dir = os.path.join(self.tmp, "probe")
        os.mkdir(probe_dir)
        with open(prove_probe.__file__, "rb") as fh:
            probe = fh.read()
        with open(os.path.join(probe_dir, PROBE + ".py"), "wb") as fh:
            fh.write(probe)
        with open(os.path.join(probe_dir, "sitecustomize.py"), "w", encoding="utf-8") as fh:
            fh.write(SITECUSTOMIZE)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [probe_dir] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
        plugins = [p for p in env.get("PYTEST_PLUGINS", "").split(",") if p.strip()]
        env["PYTEST_PLUGINS"] = ",".join(plugins + [PROBE])
        env.pop(prove_probe.PYTEST_ENV, None)
        self.env = env
        return self

    def __exit__(self, *exc) -> None:
        self.bar.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    # ---- the proof --------------------------------------------------------------------------

    def prove(self) -> None:
        first = self.trial(set(), "baseline 1/2")
        self.check_started(first)
        second = self.trial(set(), "baseline 2/2")
        self.check_started(second)
        if not self.fixed_limit:
            self.limit = max(MIN_LIMIT, LIMIT_FACTOR * max(first.seconds, second.seconds))
        if first.kind != second.kind or (first.kind == "exit" and (
                first.status, first.digest) != (second.status, second.digest)):
            raise ProveError("CMD's outcome on the unchanged tree differs between two runs "
                             f"({describe(first)} / {describe(second)}): nothing can be proven "
                             "on it")
        self.flaky = sorted(n for n in set(first.tests) | set(second.tests)
                            if first.tests.get(n) != second.tests.get(n))
        self.baseline = first
        self.settle([c.index for c in self.cands], None)
        self.unexercised = sorted(self.kept - self.exercised)
        self.final = set(self.kept) if self.keep_unexercised else self.kept & self.exercised
        if self.final != self.kept:  # never run as it stays: run it once more
            outcome = self.trial(self.final, "confirming")
            changes = self.compare(outcome)
            if changes:
                raise ProveError(
                    "leaving out the fixes CMD did not run changed its outcome ("
                    + "; ".join(str(c) for c in changes[:3]) + "): their lines ran where the "
                    "probe could not see (a Python started with -I or -S, a tracer of its own); "
                    "try --keep-unexercised")
            self.exercised |= {i for i in self.final if self.lines[i] & outcome.hits}
        else:
            self.write(self.final)

    def settle(self, group: List[int], known: Optional[List[Change]]) -> bool:
        """Try ``group`` on top of the kept fixes (``known``: its outcome's changes, already
        seen); True when it was kept whole."""
        if known is None:
            outcome = self.trial(self.kept | set(group), f"{len(group)} fix(es)")
            changes = self.compare(outcome)
            if not changes:
                self.kept |= set(group)
                self.exercised |= {i for i in self.kept if self.lines[i] & outcome.hits}
                self.bar.update(len(self.kept) + len(self.rejected), f"run {self.runs}")
                return True
        else:
            changes = known
        if len(group) == 1:
            self.rejected[group[0]] = changes
            self.bar.update(len(self.kept) + len(self.rejected), f"run {self.runs}")
            return False
        half = len(group) // 2
        if self.settle(group[:half], None):
            # the second half on top of the kept ones is the trial just seen
            self.settle(group[half:], changes)
        else:
            self.settle(group[half:], None)
        return False

    def compare(self, outcome: Outcome) -> List[Change]:
        base = self.baseline
        assert base is not None
        if base.kind != outcome.kind:
            return [Change("pytest session" if base.kind == "pytest" else "exit status",
                           describe(base), describe(outcome))]
        if base.kind == "exit":
            out = []
            if base.status != outcome.status:
                out.append(Change("exit status", str(base.status), str(outcome.status)))
            if base.digest != outcome.digest:
                out.append(Change("stdout sha256", base.digest[:16], outcome.digest[:16]))
            return out
        flaky = set(self.flaky)
        names = sorted((set(base.tests) | set(outcome.tests)) - flaky)
        return [Change(n, base.tests.get(n, "absent"), outcome.tests.get(n, "absent"))
                for n in names if base.tests.get(n) != outcome.tests.get(n)]

    def check_started(self, outcome: Outcome) -> None:
        if outcome.kind == "exit" and outcome.status in (126, 127):
            tail = self.tail("stderr")
            raise ProveError(f"CMD did not start (exit status {outcome.status}"
                             + (f": {tail}" if tail else "") + ")")
        if not outcome.probed:
            tail = self.tail("stderr")
            raise ProveError(
                "the probe did not start in any Python process of CMD, so no fixed line could "
                "be seen to run (does CMD set PYTHONPATH? extend it: PYTHONPATH=DIR:$PYTHONPATH;"
                " does it run Python with -I, -E or -S, or no Python at all?)"
                + (f"; CMD's last line on stderr: {tail}" if tail else ""))

    # ---- one run ----------------------------------------------------------------------------

    def trial(self, applied: Set[int], label: str) -> Outcome:
        """Write the files with the fixes ``applied``, run CMD on them, and read its outcome."""
        listed = self.write(applied)
        self.runs += 1
        self.bar.update(len(self.kept) + len(self.rejected), f"run {self.runs}: {label}")
        out = os.path.join(self.tmp, f"run-{self.runs}")
        os.mkdir(out)
        lines_file = os.path.join(out, "lines.json")
        with open(lines_file, "w", encoding="utf-8") as fh:
            json.dump(listed, fh)
        env = dict(self.env, **{prove_probe.LINES_ENV: lines_file, prove_probe.OUT_ENV: out})
        self.out = out
        start = time.monotonic()
        status = execute(self.cmd, env, out, self.limit, self.runs, label, self.started)
        seconds = time.monotonic() - start
        self.timings.append((label, seconds))
        return read_outcome(out, status, seconds)

    def write(self, applied: Set[int]) -> Dict[str, List[int]]:
        """Put the files in the state with the fixes ``applied``; the fixed lines by real path
        (``self.lines``: each applied fix's ``(real path, line)`` pairs)."""
        from ..fixes import apply_fixes

        listed: Dict[str, List[int]] = {}
        self.lines: Dict[int, Set[Tuple[str, int]]] = {c.index: set() for c in self.cands}
        for src in self.sources:
            chosen = [c for c in src.candidates if c.index in applied]
            try:
                text = apply_fixes(src.decoded.text, [c.diag for c in chosen])  # type: ignore
            except LintError as exc:
                raise ProveError(f"{src.path}: these fixes together do not parse ({exc})"
                                 ) from None
            data = src.decoded.encode(text)  # type: ignore[attr-defined]
            if data != src.current:
                self.put(src, data)
            spans = fixed_lines(text, chosen)
            for index, lines in spans.items():
                self.lines[index] = {(src.real, n) for n in lines}
                listed.setdefault(src.real, []).extend(sorted(lines))
        return listed

    def put(self, src: Source, data: bytes) -> None:
        src.written.append(data)  # before the write: a signal may land right after it
        try:
            write_fixed(src.path, data, src.current, self.roots)
        except Unchanged as exc:
            raise ProveError(f"{src.path}: {exc}") from None
        src.current = data
        moved_on(src)

    def abort(self, why: str, status: int) -> int:
        """Write every file back, say why the run stopped; ``status``."""
        self.bar.close()
        for s in SIGNALS:  # the files are restored whatever arrives now
            signal.signal(s, signal.SIG_IGN)
        for proc in self.started:  # a signal cut ending this one short (not reaped: its pid
            if proc.returncode is None:  # and group are still its own)
                end_group(proc)
        left = self.restore()
        print(f"tensorcopy: error: --prove: {why}; "
              + ("every file was written back as it was" if not left else
                 "files written back but for: " + "; ".join(left)), file=sys.stderr)
        return status

    def restore(self) -> List[str]:
        left = []
        for src in self.sources:
            try:
                with open(src.real, "rb") as fh:
                    now = fh.read()
            except OSError as exc:
                left.append(f"{src.path} (cannot read it: {exc.strerror or exc})")
                continue
            if now == src.decoded.raw:  # type: ignore[attr-defined]
                continue
            if now not in src.written:
                left.append(f"{src.path} (changed by another process meanwhile)")
                continue
            try:
                atomic_write(src.real, src.decoded.raw, expect=now)  # type: ignore
            except (OSError, Unchanged) as exc:
                left.append(f"{src.path} ({exc})")
                continue
            try:  # the original's mtime too: its cached .pyc is valid again, no other is
                os.utime(src.real, (time.time(), src.mtime))
            except OSError:
                pass
        return left

    def tail(self, name: str) -> str:
        try:
            with open(os.path.join(self.out, name), "rb") as fh:
                data = fh.read()[-2000:]
        except OSError:
            return ""
        lines = [ln for ln in data.decode(errors="replace").splitlines() if ln.strip()]
        return lines[-1].strip() if lines else ""


SITECUSTOMIZE = f'''\
"""Written by tensorcopy fix --prove for the run of its CMD: starts {PROBE}, then runs the
sitecustomize this one hides, if there is one."""
import importlib.machinery
import importlib.util
import os
import sys

try:
    import {PROBE}
except Exception:
    pass


def _chain():
    here = os.path.dirname(os.path.abspath(__file__))
    path = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


_chain()
'''


def fixed_lines(text: str, chosen: List[Candidate]) -> Dict[int, Set[int]]:
    """The lines of ``text`` (the file with ``chosen`` applied) that each fix's edits wrote."""
    owners: Dict[Tuple[int, int, str], List[int]] = {}
    for c in chosen:
        for e in c.diag.fix.edits:  # type: ignore[attr-defined]
            owners.setdefault((e.start, e.end, e.text), []).append(c.index)
    starts = line_starts(text)
    out: Dict[int, Set[int]] = {c.index: set() for c in chosen}
    delta = 0
    for (start, end, new) in sorted(owners):
        lo = start + delta
        hi = max(lo, lo + len(new) - 1)
        first, last = bisect.bisect_right(starts, lo), bisect.bisect_right(starts, hi)
        for index in owners[(start, end, new)]:
            out[index].update(range(first, last + 1))
        delta += len(new) - (end - start)
    return out


def moved_on(src: Source) -> None:
    """Set the mtime of ``src``'s file, just written, to whole seconds past the original's and
    past every version's before (see the module's docstring): now, unless that is not later."""
    now = time.time()
    seconds = max(int(now), src.stamp + 1, int(src.mtime) + 1)
    try:
        os.utime(src.real, (now, float(seconds)))
    except OSError:
        return
    src.stamp = seconds


def execute(cmd: str, env, out: str, limit: Optional[float], number: int, label: str,
            started: List[subprocess.Popen]) -> int:
    """Run ``cmd`` in a shell in a session of its own (added to ``started``), its output in
    ``out``; its exit status. ProveError if it runs past ``limit``; its processes are ended
    however this returns."""
    with open(os.path.join(out, "stdout"), "wb") as so, \
            open(os.path.join(out, "stderr"), "wb") as se:
        try:
            proc = subprocess.Popen(cmd, shell=True, stdin=subprocess.DEVNULL, stdout=so,
                                    stderr=se, env=env, start_new_session=True)
        except OSError as exc:
            raise ProveError(f"cannot start CMD: {exc}") from None
        started.append(proc)
        try:
            return proc.wait(limit)
        except subprocess.TimeoutExpired:
            raise ProveError(f"run {number} ({label}) of CMD took longer than {limit:g} s "
                             "(--prove-timeout)") from None
        finally:
            end_group(proc)


def end_group(proc: subprocess.Popen) -> None:
    """End every process of ``proc``'s group (SIGTERM, then SIGKILL after ``GRACE``), and reap
    ``proc``. A process that left the group (its own session) is not reached."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            break
        deadline = time.monotonic() + GRACE
        while time.monotonic() < deadline:
            proc.poll()
            try:
                os.killpg(proc.pid, 0)
            except (ProcessLookupError, PermissionError):
                break
            time.sleep(0.02)
        else:
            continue
        break
    proc.wait()


def read_outcome(out: str, status: int, seconds: float) -> Outcome:
    tests: Dict[str, str] = {}
    found = False
    names = sorted(os.listdir(out))
    for name in names:
        if name.startswith("pytest-") and name.endswith(".json"):
            try:
                with open(os.path.join(out, name), encoding="utf-8") as fh:
                    tests.update(json.load(fh)["tests"])
                found = True
            except (OSError, ValueError, KeyError, TypeError):
                continue
    hits: Set[Tuple[str, int]] = set()
    try:
        with open(os.path.join(out, "hits"), "rb") as fh:
            for raw in fh:
                path, _, line = raw.decode("utf-8", "surrogateescape").rstrip("\n").rpartition("\t")
                if line.isdigit():
                    hits.add((path, int(line)))
    except OSError:
        pass
    import hashlib

    digest = hashlib.sha256()
    with open(os.path.join(out, "stdout"), "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return Outcome("pytest" if found else "exit", tests, status, digest.hexdigest(), hits,
                   seconds, any(n.startswith("probe-") for n in names))


def describe(o: Outcome) -> str:
    if o.kind == "pytest":
        return f"pytest, {len(o.tests)} test(s)"
    return f"exit status {o.status}, stdout sha256 {o.digest[:16]}"
