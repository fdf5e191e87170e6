"""The flake8 plugin's own cost on a corpus, in process: every file is read and parsed first (as
flake8 does before it calls plugins), then only the plugin's ``run()`` is timed, file by file, in
CPU time. Without flake8's work around it, a change to the analysis shows at a size that flake8's
whole-run ratios (``run.py``) hide in machine noise.

    python benchmarks/own_cost.py DIR                       # this checkout, 5 runs
    python benchmarks/own_cost.py DIR --other CHECKOUT      # and another, interleaved

Each run is a fresh process. The preloaded trees are moved out of the cyclic collector's view
(``gc.freeze``): they are the harness's, not the analysis's garbage, and a full collection walking
them lands in some runs and not others (0.4 s of swing on the dense corpus). Prints the min and the
median of each side and the ratio of the mins.
"""
import argparse
import os
import statistics
import subprocess
import sys

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
gc.collect()
gc.freeze()
start = time.process_time()
from flake8_tensorcopy.plugin import TensorCopyChecker
found = sum(len(list(TensorCopyChecker(tree, lines, path).run())) for path, lines, tree in data)
print(time.process_time() - start, found, len(data))
"""


def _one(corpus: str, pythonpath: str) -> tuple:
    env = dict(os.environ, PYTHONPATH=pythonpath, PYTHONSAFEPATH="1")
    out = subprocess.run([sys.executable, "-c", _CHILD, corpus], env=env, check=True,
                         capture_output=True, text=True, cwd=os.path.dirname(corpus)).stdout
    seconds, found, files = out.split()
    return float(seconds), int(found), int(files)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", help="a folder of Python files (the dense corpus, say)")
    ap.add_argument("--other", metavar="CHECKOUT", help="another checkout, run interleaved")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    corpus = os.path.abspath(args.corpus)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sides = {"this checkout": here}
    if args.other:
        sides["other"] = os.path.abspath(args.other)
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
