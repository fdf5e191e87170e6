"""The flake8 plugin's own cost on a corpus, in process: every file is read and parsed first (as
flake8 does before it calls plugins), then only the plugin's ``run()`` is timed, file by file, in
CPU time. Without flake8's work around it, a change to the analysis shows at a size that flake8's
whole-run ratios (``run.py``) hide in machine noise.

    python benchmarks/own_cost.py DIR                       # this checkout, 5 runs
    python benchmarks/own_cost.py DIR --other CHECKOUT      # and another, interleaved
    python benchmarks/own_cost.py DIR --bounds              # what each part costs (below)
    python benchmarks/own_cost.py DIR --in-flake8 PYTHON    # the same, in flake8's process
    python benchmarks/own_cost.py DIR --in-flake8 PYTHON --other CHECKOUT  # and another's plugin
    python benchmarks/own_cost.py DIR --in-flake8 PYTHON --share [--torchfix PYTHON] [--other CHECKOUT]
                                                            # each plugin's time inside flake8

Each run is a fresh process. The preloaded trees are moved out of the cyclic collector's view
(``gc.freeze``): they are the harness's, not the analysis's garbage, and a full collection walking
them lands in some runs and not others (0.4 s of swing on the dense corpus). Prints the min and the
median of each side and the ratio of the mins. For the same reason it cannot judge a change that
keeps objects flake8 made (its trees, say): what they cost flake8's collector shows only in
flake8's own process (benchmarks/RESULTS.md, tenth round: faster here, slower there).

``--bounds`` runs this checkout three ways, interleaved, to say what the project index costs and
so how low the plugin's own cost can go while the index does what it does now:

- ``shipped``: as it is. Also counts the modules the index read (parsed) and their lines, and
  the lines of the top-level definitions of theirs that the analysis looked up: the most that
  parsing only the definitions asked for could save.
- ``no-index``: the index reads no module (every import of the project is unknown): the time is
  the plugin without the index; the diagnostics it loses are those that need it.
- ``parse-free``: every module the index reads was parsed before the clock started: the time
  without the index's parsing, the same diagnostics.

``--in-flake8 PYTHON`` measures in flake8's own process instead (``flake8 --jobs 1`` over DIR, CPU
of each process): flake8 alone (``PYTHON`` is an interpreter with flake8 and without this plugin,
e.g. ``run.py``'s ``benchmarks/.work/flake8/bin/python``), flake8 with the plugin from this
checkout, and the same with the index reading no module; the order rotates every round and is
reversed every other one. Prints each one's median and each ratio to flake8 alone per round, with
the Hodges-Lehmann estimate and exact 95% interval of the rounds' log ratios (the verifier's
``walsh_interval``, as ``run.py`` gives its pairs; a round's runs are adjacent, not paired); then
each one's cyclic collector time, by generation, timed inside the process with ``gc.callbacks``:
what objects kept alive across files (the index's trees) cost flake8's own collections, which
the harness above cannot show. With ``--other CHECKOUT`` the plugin of that checkout is a fourth
way in the rotation, and this checkout's plugin over it is estimated per round the same way.

``--share`` (with ``--in-flake8 PYTHON``) times each plugin's own work inside its flake8 process
instead, and gives flake8 with the plugin over flake8's work in the same process, process by
process: on a machine whose speed drifts by 10-25% between processes the whole-process ratios
above need dozens of rounds, while within one process both parts drift together (``share``).
"""
import argparse
import math
import os
import re
import resource
import statistics
import subprocess
import sys
from typing import Dict, List, Optional, Tuple

_CHILD = r"""
import ast, gc, os, sys, time
files = []
for d, dirs, names in os.walk(sys.argv[1]):
    dirs.sort()
    files += [os.path.join(d, n) for n in sorted(names) if n.endswith(".py")]
data = []
for path in files:
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        data.append((path, text.splitlines(True), ast.parse(text)))
    except (SyntaxError, ValueError, UnicodeDecodeError):
        pass
mode = sys.argv[2] if len(sys.argv) > 2 else "shipped"
counting = len(sys.argv) > 3
counts = [0, 0, 0]  # modules the index read, their lines, lines of the definitions looked up
if mode != "shipped" or counting:
    from flake8_tensorcopy.semantic.index import facts, resolve
    if mode == "no-index":
        resolve.ProjectIndex.load_path = lambda self, path: None
    elif mode == "parse-free":
        import types
        trees = {}
        for path in files:
            try:
                with open(path, "rb") as fh:
                    raw = fh.read()
                trees[raw] = ast.parse(raw)
            except (SyntaxError, ValueError):
                pass

        class _Ast(types.ModuleType):
            def __getattr__(self, name):
                return getattr(ast, name)

        fast = _Ast("ast")
        fast.parse = lambda data, filename="<unknown>", *a, **k: (
            trees.get(data) if isinstance(data, bytes) and data in trees
            else ast.parse(data, filename, *a, **k))
        resolve.ast = fast
    else:  # shipped, counted
        load, lookup = resolve.ProjectIndex._load_path_now, facts.ModuleFacts.lookup
        asked, read = {}, set()

        def counted_load(self, path):
            new = path not in self._modules
            got = load(self, path)
            if new and got is not None:
                read.add(path)
                counts[0] += 1
                counts[1] += len((got.text or "").splitlines())
            return got

        def counted_lookup(self, name, _depth=0):
            d = self.defs.get(name)
            node = getattr(d, "node", None)
            if node is not None and (self.path, name) not in asked:
                asked[(self.path, name)] = node.end_lineno - node.lineno + 1
            return lookup(self, name, _depth)

        resolve.ProjectIndex._load_path_now = counted_load
        facts.ModuleFacts.lookup = counted_lookup
gc.collect()
gc.freeze()
start = time.process_time()
from flake8_tensorcopy.plugin import TensorCopyChecker
found = sum(len(list(TensorCopyChecker(tree, lines, path).run())) for path, lines, tree in data)
spent = time.process_time() - start
if counting:
    counts[2] = sum(n for (path, _), n in asked.items() if path in read)
print(spent, found, len(data), *counts)
"""

#: ``--bounds``: the ways the plugin is run, in the order of the first round
BOUNDS = ("shipped", "no-index", "parse-free")

#: ``--in-flake8``: flake8's command line, the index switched off before it starts when asked
_FLAKE8 = r"""
import gc, os, sys, time
if os.environ.get("TENSORCOPY_BOUNDS_NO_INDEX"):
    from flake8_tensorcopy.semantic.index import resolve
    resolve.ProjectIndex.load_path = lambda self, path: None
spent, started = [0.0, 0.0, 0.0], [0.0]
count = [0, 0, 0]
def timed(phase, info):
    if phase == "start":
        started[0] = time.process_time()
    else:
        spent[info["generation"]] += time.process_time() - started[0]
        count[info["generation"]] += 1
gc.callbacks.append(timed)
from flake8.main.cli import main
try:
    code = main(sys.argv[1:])
finally:
    gc.callbacks.remove(timed)
    print("own_cost-gc:", *spent, *count, file=sys.stderr)
sys.exit(code)
"""
IN_FLAKE8 = ("flake8 alone", "flake8 + plugin", "flake8 + plugin, no index")

#: ``--share``: flake8's command line with one plugin's own CPU time measured in the process:
#: importing its module, making its checker for each file and running it
#: (``OWN_COST_PLUGIN`` = ``module:Class``); prints the process's CPU time, the plugin's and
#: the collector's
_SHARE = r"""
import functools, gc, importlib, os, sys, time
own, collector, started = [0.0], [0.0], [0.0]
def timed_gc(phase, info):
    if phase == "start":
        started[0] = time.process_time()
    else:
        collector[0] += time.process_time() - started[0]
gc.callbacks.append(timed_gc)
target = os.environ.get("OWN_COST_PLUGIN")
if target:
    module, name = target.split(":")
    t = time.process_time()
    cls = getattr(importlib.import_module(module), name)
    own[0] += time.process_time() - t
    init, run = cls.__init__, cls.run

    @functools.wraps(init)  # flake8 reads the parameters it passes from the signature
    def timed_init(self, *args, **kwargs):
        t = time.process_time()
        try:
            return init(self, *args, **kwargs)
        finally:
            own[0] += time.process_time() - t

    def timed_run(self):
        t = time.process_time()
        try:
            it = iter(run(self))
        finally:
            own[0] += time.process_time() - t
        while True:
            t = time.process_time()
            try:
                item = next(it)
            except StopIteration:
                return
            finally:
                own[0] += time.process_time() - t
            yield item

    cls.__init__, cls.run = timed_init, timed_run
from flake8.main.cli import main
try:
    code = main(sys.argv[1:])
finally:
    gc.callbacks.remove(timed_gc)
    print("own_cost-share:", time.process_time(), own[0], collector[0], file=sys.stderr)
sys.exit(code)
"""
SHARE = ("flake8 alone", "flake8 + plugin", "flake8 + TorchFix")
PLUGINS = {"flake8 + plugin": "flake8_tensorcopy.plugin:TensorCopyChecker",
           "flake8 + TorchFix": "torchfix.torchfix:TorchChecker"}


def _estimate(ratios: List[float], here: str) -> str:
    """The Hodges-Lehmann estimate of the rounds' ratios with its exact 95% interval (the
    verifier's ``walsh_interval`` on their logs, as ``run.py`` gives its pairs), and the rounds."""
    if here not in sys.path:
        sys.path.insert(0, here)
    from flake8_tensorcopy.verify.stats import walsh_interval

    est, low, high = (math.exp(v) for v in walsh_interval([math.log(r) for r in ratios]))
    return f"estimate {est:.3f} [{low:.3f}, {high:.3f}] (rounds: " + ", ".join(
        f"{r:.3f}" for r in ratios) + ")"


def _compiled(*checkouts: Optional[str]) -> None:
    """Write the bytecode of each checkout's package before anything is timed. Without it (a
    fresh worktree, ``PYTHONDONTWRITEBYTECODE`` set, as on this machine) every process compiles
    the modules it imports, and that side's own cost carries about 0.25 s that is not the
    plugin's (the twelfth round's first before/after measured it)."""
    import compileall

    for checkout in checkouts:
        if checkout:
            compileall.compile_dir(os.path.join(checkout, "flake8_tensorcopy"), quiet=1)


def _one(corpus: str, pythonpath: str, mode: str = "shipped", count: bool = False) -> tuple:
    env = dict(os.environ, PYTHONPATH=pythonpath, PYTHONSAFEPATH="1")
    argv = [sys.executable, "-c", _CHILD, corpus, mode] + (["count"] if count else [])
    out = subprocess.run(argv, env=env, check=True, capture_output=True, text=True,
                         cwd=os.path.dirname(corpus)).stdout
    seconds, found, files, *counts = out.split()
    got = (float(seconds), int(found), int(files))
    return got + tuple(int(c) for c in counts) if count else got


def bounds(corpus: str, here: str, runs: int) -> int:
    """``--bounds``: each way ``runs`` times, the order reversed every other round; then one
    counted run of the shipped plugin (not timed: the counting costs)."""
    _compiled(here)
    times = {m: [] for m in BOUNDS}
    found = {}
    for i in range(runs):
        for mode in BOUNDS if i % 2 == 0 else BOUNDS[::-1]:
            seconds, n, files = _one(corpus, here, mode)[:3]
            times[mode].append(seconds)
            found[mode] = n
            print(f"{mode}: {seconds:.3f} s CPU, {n} diagnostics, {files} files",
                  file=sys.stderr, flush=True)
    _, _, _, modules, lines, asked = _one(corpus, here, "shipped", count=True)
    base = statistics.median(times["shipped"])
    for mode in BOUNDS:
        med = statistics.median(times[mode])
        print(f"{mode}: median {med:.3f} s, min {min(times[mode]):.3f} s ({runs} runs), "
              f"{found[mode]} diagnostics; median {med - base:+.3f} s against shipped")
    print(f"index: {modules} modules read, {lines} lines; the definitions looked up in them: "
          f"{asked} lines ({asked / max(lines, 1):.0%})")
    return 0


def _flake8_run(python: str, corpus: str, pythonpath: Optional[str], no_index: bool) -> tuple:
    """(CPU seconds of one ``flake8 --jobs 1`` process over ``corpus``, TEN lines it printed,
    the cyclic collector's CPU seconds in it per generation (young, middle, full) and its
    number of collections per generation, timed with ``gc.callbacks`` in the process)."""
    env = dict(os.environ, PYTHONSAFEPATH="1")
    env.pop("TENSORCOPY_BOUNDS_NO_INDEX", None)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    if no_index:
        env["TENSORCOPY_BOUNDS_NO_INDEX"] = "1"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    got = subprocess.run([python, "-c", _FLAKE8, "--jobs", "1", "--exit-zero", corpus], env=env,
                         check=True, capture_output=True, text=True, cwd=os.path.dirname(corpus))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    gc_line = [line for line in got.stderr.splitlines() if line.startswith("own_cost-gc:")][-1]
    fields = gc_line.split()[1:]
    return (cpu, sum(1 for line in got.stdout.splitlines() if ": TEN" in line),
            tuple(float(v) for v in fields[:3]), tuple(int(v) for v in fields[3:]))


OTHER = "flake8 + plugin, other checkout"


def in_flake8(corpus: str, here: str, alone: str, runs: int,
              other: Optional[str] = None) -> int:
    """``--in-flake8``: see the module's text. With ``other`` (a checkout), its plugin is a
    fourth way in the rotation, and each round's CPU with this checkout's plugin over the
    other's is estimated with its interval (the before/after of a change, side by side)."""
    _compiled(here, other)
    how = {IN_FLAKE8[0]: (alone, None, False), IN_FLAKE8[1]: (sys.executable, here, False),
           IN_FLAKE8[2]: (sys.executable, here, True)}
    ways = IN_FLAKE8
    if other is not None:
        how[OTHER] = (sys.executable, other, False)
        ways = IN_FLAKE8 + (OTHER,)
    times: Dict[str, List[float]] = {k: [] for k in ways}
    collector: Dict[str, List[tuple]] = {k: [] for k in ways}
    found: Dict[str, int] = {}
    for i in range(runs):
        n = len(ways)
        order = ways[i % n:] + ways[:i % n]
        for name in order if i % 2 == 0 else order[::-1]:
            python, pythonpath, no_index = how[name]
            cpu, n, gc_cpu, gc_runs = _flake8_run(python, corpus, pythonpath, no_index)
            times[name].append(cpu)
            collector[name].append(gc_cpu + gc_runs)
            found[name] = n
            print(f"{name}: {cpu:.2f} s CPU ({sum(gc_cpu):.2f} s collector), {n} TEN diagnostics",
                  file=sys.stderr, flush=True)
    for name in ways:
        got = times[name]
        print(f"{name}: median {statistics.median(got):.2f} s CPU ({runs} runs), "
              f"{found[name]} TEN diagnostics")
    pairs = [(name, IN_FLAKE8[0]) for name in ways[1:]]
    if other is not None:
        pairs.append((IN_FLAKE8[1], OTHER))
    for name, base in pairs:
        ratios = [a / b for a, b in zip(times[name], times[base])]
        print(f"{name} / {base}: median {statistics.median(ratios):.3f}, "
              + _estimate(ratios, here))
    for name in ways:
        # per generation: the median CPU seconds and the median number of collections
        young, middle, full = (statistics.median(c[g] for c in collector[name]) for g in range(3))
        runs_full = statistics.median(c[5] for c in collector[name])
        total = statistics.median(sum(c[:3]) for c in collector[name])
        print(f"{name}: collector median {total:.2f} s (young {young:.2f}, middle {middle:.2f}, "
              f"full {full:.2f} s in {runs_full:g} full collections)")
    return 0


def _share_run(python: str, corpus: str, pythonpath: Optional[str],
               plugin: Optional[str]) -> Tuple[float, float, float, Dict[str, int]]:
    """(CPU seconds of one ``flake8 --jobs 1`` process over ``corpus``, the plugin's own CPU
    seconds in it, the collector's, and the number of diagnostics per code prefix)."""
    env = dict(os.environ, PYTHONSAFEPATH="1")
    env.pop("OWN_COST_PLUGIN", None)
    env.pop("PYTHONPATH", None)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    if plugin is not None:
        env["OWN_COST_PLUGIN"] = plugin
    got = subprocess.run([python, "-c", _SHARE, "--jobs", "1", "--exit-zero", corpus], env=env,
                         check=True, capture_output=True, text=True, cwd=os.path.dirname(corpus))
    line = [x for x in got.stderr.splitlines() if x.startswith("own_cost-share:")][-1]
    total, own, collector = (float(v) for v in line.split()[1:])
    codes: Dict[str, int] = {}
    for out in got.stdout.splitlines():
        m = re.search(r":\d+:\d+: ([A-Z]+)\d", out)
        if m:
            codes[m.group(1)] = codes.get(m.group(1), 0) + 1
    return total, own, collector, codes


def share(corpus: str, here: str, alone: str, torchfix: Optional[str], runs: int,
          other: Optional[str] = None) -> int:
    """``--share``: each plugin's own CPU time inside its flake8 process, round by round.

    Machine speed drifts by 10-25% between processes on a shared machine, far more than a
    plugin's cost; within one process, flake8's work and the plugin's are slowed alike. So
    each process gives its own ratio, flake8 with the plugin over flake8's work in the same
    process (``total / (total - own)``), and the rounds give its estimate and interval; the
    plugin's own cost against TorchFix's is the ratio of the two own times of a round. What
    this leaves out is what a plugin changes in flake8's own work: its collector's time is
    printed per way (a plugin that keeps objects alive makes flake8's collections longer).
    With ``other`` (a checkout) its plugin is one more way."""
    _compiled(here, other)
    ways = SHARE if torchfix else SHARE[:2]
    how = {SHARE[0]: (alone, None, None), SHARE[1]: (sys.executable, here, PLUGINS[SHARE[1]]),
           SHARE[2]: (torchfix, None, PLUGINS[SHARE[2]])}
    if other is not None:
        ways = ways + (OTHER,)
        how[OTHER] = (sys.executable, other, PLUGINS[SHARE[1]])
    got: Dict[str, List[Tuple[float, float, float]]] = {k: [] for k in ways}
    codes: Dict[str, Dict[str, int]] = {}
    for i in range(runs):
        order = ways if i % 2 == 0 else ways[::-1]
        for name in order:
            python, pythonpath, plugin = how[name]
            total, own, collector, codes[name] = _share_run(python, corpus, pythonpath, plugin)  # type: ignore[arg-type]
            got[name].append((total, own, collector))
            print(f"{name}: {total:.2f} s CPU, own {own:.2f} s, collector {collector:.2f} s, "
                  f"{codes[name]}", file=sys.stderr, flush=True)
    for name in ways:
        med = [statistics.median(r[k] for r in got[name]) for k in range(3)]
        print(f"{name}: median {med[0]:.2f} s CPU, own {med[1]:.2f} s, collector "
              f"{med[2]:.2f} s ({runs} runs); diagnostics {codes[name]}")
    for name in ways[1:]:
        print(f"{name}: whole / flake8's work in the same process, "
              + _estimate([t / (t - o) for t, o, _ in got[name]], here))
    if torchfix:
        print("plugin's own / TorchFix's own, per round, " + _estimate(
            [a[1] / b[1] for a, b in zip(got[SHARE[1]], got[SHARE[2]])], here))
    if other is not None:
        print("plugin's own / the other checkout's, per round, " + _estimate(
            [a[1] / b[1] for a, b in zip(got[SHARE[1]], got[OTHER])], here))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", help="a folder of Python files (the dense corpus, say)")
    ap.add_argument("--other", metavar="CHECKOUT", help="another checkout, run interleaved")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--bounds", action="store_true",
                    help="what the project index and its parsing cost (see the module's text)")
    ap.add_argument("--share", action="store_true",
                    help="with --in-flake8: each plugin's own time inside its flake8 process, and "
                         "the ratio it gives per process (see the module's text)")
    ap.add_argument("--torchfix", metavar="PYTHON",
                    help="with --share: an interpreter with flake8 and TorchFix, run as a third way")
    ap.add_argument("--in-flake8", metavar="PYTHON",
                    help="flake8 alone (PYTHON: one without this plugin), with the plugin and with "
                         "it but no index, in flake8's process")
    args = ap.parse_args()
    if args.bounds and args.other:
        ap.error("--bounds runs this checkout only; leave out --other")
    if args.bounds and args.in_flake8:
        ap.error("give --bounds or --in-flake8, not both")
    if args.share and not args.in_flake8:
        ap.error("--share needs --in-flake8 PYTHON (flake8 without this plugin)")
    if args.torchfix and not args.share:
        ap.error("--torchfix goes with --share")
    corpus = os.path.abspath(args.corpus)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if args.bounds:
        return bounds(corpus, here, args.runs)
    if args.in_flake8:
        # a path as typed (``benchmarks/.work/flake8/bin/python``) is relative to here, while
        # flake8 runs from the corpus's folder; a bare name is looked up on PATH as given
        alone = args.in_flake8
        if os.sep in alone or (os.altsep and os.altsep in alone):
            alone = os.path.abspath(alone)
        if args.share:
            torchfix = args.torchfix
            if torchfix and os.sep in torchfix:
                torchfix = os.path.abspath(torchfix)
            return share(corpus, here, alone, torchfix, args.runs,
                         os.path.abspath(args.other) if args.other else None)
        return in_flake8(corpus, here, alone, args.runs,
                         os.path.abspath(args.other) if args.other else None)
    sides = {"this checkout": here}
    if args.other:
        sides["other"] = os.path.abspath(args.other)
    _compiled(*sides.values())
    times = {k: [] for k in sides}
    for _ in range(args.runs):
        for name, path in sides.items():
            seconds, found, files = _one(corpus, path)
            times[name].append(seconds)
            print(f"{name}: {seconds:.3f} s CPU, {found} diagnostics, {files} files",
                  file=sys.stderr, flush=True)
    for name, got in times.items():
        print(f"{name}: min {min(got):.3f} s, median {statistics.median(got):.3f} s "
              f"({len(got)} runs)")
    if args.other:
        print(f"ratio of mins (this / other): {min(times['this checkout']) / min(times['other']):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
