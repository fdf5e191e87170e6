"""Speed and memory of flake8-tensorcopy against flake8 alone, libcst and TorchFix.

    python benchmarks/run.py [--corpus DIR] [--runs 3] [--skip-torchfix] [--output FILE]

Every tool runs in its own virtual environment under ``benchmarks/.work/`` (created on first use
from the package index), so neither plugin's time leaks into the other's. Runs are interleaved
(one of each configuration per round), flake8 single process (``--jobs 1``), and each figure is the
median over the rounds; peak RSS comes from ``wait4`` for each run. Not part of the test suite.
"""
from __future__ import annotations

import argparse
import datetime
import glob
import importlib.util
import os
import platform
import statistics
import subprocess
import sys
import time
import venv
from typing import Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WORK = os.path.join(HERE, ".work")
TORCHFIX = "torchfix==0.7.0"


def default_corpus() -> str:
    spec = importlib.util.find_spec("torch")  # locates the package without importing it
    if spec is None or not spec.origin:
        sys.exit("benchmarks: no installed torch package to use as the corpus; pass --corpus DIR")
    return os.path.dirname(spec.origin)


def corpus_stats(corpus: str) -> Tuple[int, int]:
    files = glob.glob(os.path.join(corpus, "**", "*.py"), recursive=True)
    lines = 0
    for f in files:
        with open(f, "rb") as fh:
            lines += fh.read().count(b"\n")
    return len(files), lines


def flake8_version() -> str:
    from importlib.metadata import version

    return version("flake8")


def make_env(name: str, packages: List[str]) -> str:
    path = os.path.join(WORK, name)
    py = os.path.join(path, "bin", "python")
    marker = os.path.join(path, ".ready")
    if not os.path.exists(marker):
        print(f"benchmarks: creating {name} environment ({' '.join(packages)})", file=sys.stderr)
        venv.EnvBuilder(with_pip=True, clear=True).create(path)
        subprocess.run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check", *packages],
                       check=True)
        with open(marker, "w") as fh:
            fh.write(" ".join(packages))
    return py


def timed(cmd: List[str]) -> Tuple[float, int, int]:
    """(seconds, peak RSS in MiB, exit code) of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    if "Traceback" in err or "failed" in err.lower() and "plugin" in err.lower():
        print(f"benchmarks: {' '.join(cmd[:3])}... reported:\n{err[-2000:]}", file=sys.stderr)
    return elapsed, usage.ru_maxrss // 1024, proc.returncode


PARSE_ALL = """
import glob, os, sys
import {mod}
files = glob.glob(os.path.join(sys.argv[1], '**', '*.py'), recursive=True)
for f in files:
    with open(f, encoding='utf-8', errors='replace') as fh:
        src = fh.read()
    try:
        {call}
    except Exception:
        pass
"""


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", help="directory of Python files (default: the installed torch package)")
    ap.add_argument("--runs", type=int, default=3, help="rounds; each figure is the median (default 3)")
    ap.add_argument("--skip-torchfix", action="store_true", help="leave TorchFix out (it is slow)")
    ap.add_argument("--torchfix-runs", type=int, default=None, metavar="N",
                    help="rounds that include TorchFix (default: all); its own cost is so large "
                         "that one run bounds the ratio well")
    ap.add_argument("--output", help="write a Markdown report here (e.g. benchmarks/RESULTS.md)")
    args = ap.parse_args(argv)

    corpus = os.path.abspath(args.corpus or default_corpus())
    nfiles, nlines = corpus_stats(corpus)
    f8 = f"flake8=={flake8_version()}"
    base = make_env("flake8", [f8])
    # install from a clean copy: an in-tree build/ directory from an earlier install could be
    # reused by setuptools and measure stale code
    import shutil
    import tempfile

    clean = os.path.join(tempfile.mkdtemp(prefix="tensorcopy-bench-"), "src")
    shutil.copytree(ROOT, clean, ignore=shutil.ignore_patterns(
        "build", ".work", "*.egg-info", ".git", "__pycache__", ".hypothesis", ".pytest_cache"))
    ours = make_env("tensorcopy", [f8, clean])
    envs = {"base": base, "ours": ours}
    if not args.skip_torchfix:
        envs["torchfix"] = make_env("torchfix", [f8, TORCHFIX])

    def bin_of(py: str, name: str) -> str:
        return os.path.join(os.path.dirname(py), name)

    configs: Dict[str, List[str]] = {
        "flake8 (default checks, no plugin)": [bin_of(base, "flake8"), "--jobs", "1", "--exit-zero", corpus],
        "flake8 (default checks) + tensorcopy": [bin_of(ours, "flake8"), "--jobs", "1", "--exit-zero", corpus],
        "flake8 --select TEN (tensorcopy only)": [bin_of(ours, "flake8"), "--jobs", "1", "--select", "TEN", "--exit-zero", corpus],
        "tensorcopy check --jobs 1 (single process)": [bin_of(ours, "tensorcopy"), "check", "--jobs", "1", "--exit-zero", "--output-format", "concise", corpus],
        f"tensorcopy check (default: {os.cpu_count()} processes)": [bin_of(ours, "tensorcopy"), "check", "--exit-zero", "--output-format", "concise", corpus],
        "libcst parse of every file": [ours, "-c", PARSE_ALL.format(mod="libcst", call="libcst.parse_module(src)"), corpus],
        "ast.parse of every file": [ours, "-c", PARSE_ALL.format(mod="ast", call="ast.parse(src)"), corpus],
    }
    if "torchfix" in envs:
        configs["flake8 (default checks) + TorchFix"] = [bin_of(envs["torchfix"], "flake8"), "--jobs", "1", "--exit-zero", corpus]
    times: Dict[str, List[float]] = {k: [] for k in configs}
    rss: Dict[str, List[int]] = {k: [] for k in configs}
    tf_name = "flake8 (default checks) + TorchFix"
    tf_runs = args.runs if args.torchfix_runs is None else max(1, min(args.runs, args.torchfix_runs))
    for r in range(args.runs):
        for name, cmd in configs.items():
            if name == tf_name and r >= tf_runs:
                continue
            secs, mib, code = timed(cmd)
            times[name].append(secs)
            rss[name].append(mib)
            print(f"round {r + 1}/{args.runs}: {name}: {secs:.1f} s, {mib} MiB (exit {code})",
                  file=sys.stderr, flush=True)

    med = {k: statistics.median(v) for k, v in times.items()}
    peak = {k: max(v) for k, v in rss.items()}
    base_t = med["flake8 (default checks, no plugin)"]
    ours_t = med["flake8 (default checks) + tensorcopy"]
    ratios = {
        "flake8 + tensorcopy / flake8 (target <= 1.3)": ours_t / base_t,
        "libcst parse-all (1 process) / tensorcopy check (default processes) (target >= 5)":
            med["libcst parse of every file"] / med[f"tensorcopy check (default: {os.cpu_count()} processes)"],
        "libcst parse-all (1 process) / tensorcopy check --jobs 1":
            med["libcst parse of every file"] / med["tensorcopy check --jobs 1 (single process)"],
        "flake8 --select TEN / flake8 (both run pycodestyle and pyflakes)":
            med["flake8 --select TEN (tensorcopy only)"] / base_t,
    }
    own = ours_t - base_t
    if "flake8 (default checks) + TorchFix" in med:
        tf_own = med["flake8 (default checks) + TorchFix"] - base_t
        ratios["tensorcopy own cost / TorchFix own cost (target <= 1/20 = 0.05)"] = own / tf_own if tf_own > 0 else float("nan")
    lines = [
        "# Benchmark results",
        "",
        f"- date: {datetime.date.today().isoformat()}",
        f"- machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores (shared; absolute times are noisy, ratios are measured side by side)",
        f"- Python {platform.python_version()}, {f8}, TorchFix {TORCHFIX.split('==')[1]}, libcst as each environment resolved it",
        f"- corpus: `{corpus}` ({nfiles} files, {nlines:,} lines)",
        f"- method: `python benchmarks/run.py --runs {args.runs}"
        + (f" --torchfix-runs {tf_runs}" if "torchfix" in envs and tf_runs != args.runs else "")
        + "`; every configuration once per round, "
        f"rounds interleaved, flake8 single process (`--jobs 1`), median over {args.runs} rounds"
        + (f" ({tf_runs} for TorchFix)" if "torchfix" in envs and tf_runs != args.runs else "")
        + "; each tool in its own virtual environment",
        "- own cost of a plugin = flake8 (default checks) with the plugin minus flake8 (default checks) without it",
        "",
        "| configuration | median (s) | all runs (s) | peak RSS (MiB) |",
        "| --- | --- | --- | --- |",
    ]
    for name in configs:
        lines.append(f"| {name} | {med[name]:.1f} | {', '.join(f'{t:.1f}' for t in times[name])} | {peak[name]} |")
    lines += ["", "| ratio | measured |", "| --- | --- |"]
    for name, value in ratios.items():
        lines.append(f"| {name} | {value:.3f} |")
    lines.append("")
    text = "\n".join(lines)
    print(text)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
