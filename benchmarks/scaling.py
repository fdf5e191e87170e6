"""How the cost grows with the work: generated projects and files at growing sizes.

    python benchmarks/scaling.py [--sizes 1000 2000 4000 8000 16000] [--parts index fixer server]
                                 [--output FILE]

Three generated inputs, each at every size:

- ``index``: a package of 20 modules whose functions return tensors and call each other across
  modules (and within their module), so every file's analysis reads the others through the
  project index; timed as ``tensorcopy check --no-cache --jobs 1 PKG`` (a whole process).
- ``fixer``: one file of ``y_i = x.clone().detach()`` lines (one safe fix each), timed as
  ``tensorcopy fix --no-cache --jobs 1 FILE`` (a whole process) on a fresh copy.
- ``server``: the same file in the language server's core: the code actions of every
  diagnostic plus fix-all (``server.core``), timed in process.

Times are CPU seconds (user + system) of the whole process (``index``, ``fixer``) or of the
work in process (``server``). For each part the log-log slope of time against size is fitted
by least squares (1.0: linear; 2.0: quadratic). Not part of the tests: ``tests/test_scaling.py``
guards the slopes on counted operations at small sizes.
"""
from __future__ import annotations

import argparse
import math
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MODULES = 20


# ---- generated inputs ---------------------------------------------------------------------

def make_package(root: str, functions: int, modules: int = MODULES, calls: int = 1) -> str:
    """A package ``pkg`` of ``modules`` modules holding ``functions`` functions in all. Function
    ``i`` of module ``m`` calls function ``i`` of the next module (imported from it) and the
    ``calls`` previous functions of its own module, returns a tensor, and holds one candidate
    whose verdict needs the index (``torch.tensor`` of what another module's function returns)
    and one that needs the module's own call sites (``.data`` of a parameter); each module's
    ``main`` calls all its functions. Returns the package path."""
    pkg = os.path.join(root, "pkg")
    os.makedirs(pkg, exist_ok=True)
    with open(os.path.join(root, "pyproject.toml"), "w") as fh:
        fh.write("[project]\nname = 'pkg'\n")
    with open(os.path.join(pkg, "__init__.py"), "w") as fh:
        fh.write("")
    per = max(1, functions // modules)
    for m in range(modules):
        nxt = (m + 1) % modules
        lines = ["import torch", f"from . import m{nxt} as nxt", ""]
        for i in range(per):
            lines.append(f"def f{m}_{i}(x):")
            lines.append(f"    y = nxt.f{nxt}_{i}(x)")
            for back in range(1, min(i, calls) + 1):
                lines.append(f"    y = y + f{m}_{i - back}(x)")
            lines.append("    z = torch.tensor(y)")
            lines.append("    w = x.data")
            lines.append("    return z + w")
            lines.append("")
        lines.append("")
        lines.append("def main():")
        lines.append("    t = torch.zeros(3)")
        for i in range(per):
            lines.append(f"    f{m}_{i}(t)")
        lines.append("")
        with open(os.path.join(pkg, f"m{m}.py"), "w") as fh:
            fh.write("\n".join(lines))
    return pkg


def fixer_source(fixes: int) -> str:
    """A file with ``fixes`` safe fixes (TEN301: ``x.clone().detach()``)."""
    lines = ["import torch", "", "x = torch.zeros(3)"]
    lines.extend(f"y{i} = x.clone().detach()" for i in range(fixes))
    return "\n".join(lines) + "\n"


# ---- timing -------------------------------------------------------------------------------

def _env() -> Dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _run(cmd: List[str], cwd: str) -> Tuple[float, subprocess.CompletedProcess]:
    """Run ``cmd``; its CPU seconds (user + system, from the system's accounting of the finished
    child: on a shared machine far steadier than wall time) and the completed process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, cwd=cwd, env=_env(), capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), proc


def time_index(size: int) -> Tuple[float, str]:
    with tempfile.TemporaryDirectory() as tmp:
        pkg = make_package(tmp, size)
        took, proc = _run([sys.executable, "-m", "flake8_tensorcopy", "check", "--no-cache",
                           "--jobs", "1", "--timeout", "0", "--statistics", pkg], tmp)
        found = proc.stdout.count(": TEN201 ")
        err = proc.stderr.strip()
        note = f"{found} cross-file TEN201" + (f"; stderr: {err[:200]}" if err else "")
        return took, note


def time_fixer(size: int) -> Tuple[float, str]:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "many.py")
        with open(path, "w") as fh:
            fh.write(fixer_source(size))
        took, proc = _run([sys.executable, "-m", "flake8_tensorcopy", "fix", "--no-cache",
                           "--jobs", "1", "--timeout", "0", path], tmp)
        with open(path) as fh:
            done = fh.read().count(".detach().clone()")
        return took, f"{done} fixed (exit {proc.returncode})"


def time_server(size: int) -> Tuple[float, str]:
    sys.path.insert(0, ROOT)
    from flake8_tensorcopy.config import Config
    from flake8_tensorcopy.server import core

    text = fixer_source(size)
    cfg = Config()
    t0 = time.process_time()
    diags = core.fixable(None, text, cfg)
    edit = core.fix_all(None, text, cfg)
    took = time.process_time() - t0
    return took, f"{len(diags)} fixable diagnostics; fix-all edit {'made' if edit else 'none'}"


PARTS = {"index": time_index, "fixer": time_fixer, "server": time_server}


def slope(sizes: Sequence[int], times: Sequence[float]) -> float:
    """Least-squares slope of log(time) against log(size)."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(max(t, 1e-9)) for t in times]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 4000, 8000, 16000])
    ap.add_argument("--parts", nargs="+", choices=list(PARTS), default=list(PARTS))
    ap.add_argument("--output", help="also write the markdown table to FILE")
    args = ap.parse_args(argv)
    out = [f"- machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores; "
           f"Python {platform.python_version()}", "",
           "| part | size | CPU seconds | note |", "| --- | --- | --- | --- |"]
    print("\n".join(out), flush=True)
    slopes = []
    for part in args.parts:
        times = []
        for size in args.sizes:
            took, note = PARTS[part](size)
            times.append(took)
            row = f"| {part} | {size:,} | {took:.2f} | {note} |"
            out.append(row)
            print(row, flush=True)
        slopes.append(f"| {part} | {slope(args.sizes, times):.2f} |")
    tail = ["", "| part | log-log slope |", "| --- | --- |"] + slopes
    print("\n".join(tail))
    out.extend(tail)
    if args.output:
        with open(args.output, "w") as fh:
            fh.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
