"""Speed and memory of flake8-tensorcopy where users are: dense ML code, torch's own source, one-file
editor runs and repeated `tensorcopy check` runs; against flake8 alone, `ast.parse` and TorchFix.

    python benchmarks/run.py --dense DIR [--torch DIR | --no-torch] [--rounds 3] [--quick]
                             [--output benchmarks/RESULTS.md]

DIR is the dense corpus, materialised outside this repository by
``python benchmarks/corpora.py materialise DIR --dense`` (pinned commits of public ML repositories;
nothing fetched is committed). ``--torch`` defaults to the installed torch package.

Every tool runs in its own virtual environment under ``benchmarks/.work/`` (or
``$TENSORCOPY_BENCH_WORK``; created on first use
from the package index; the plugin is installed from a clean copy of this checkout), so neither
plugin's time leaks into the other's. Every configuration runs once per round, rounds interleaved,
flake8 single process (``--jobs 1``), from a neutral working directory; each figure is the median
over the rounds. Times are wall-clock and CPU (user + system of the process and its children, from
``wait4``, which another load on a shared machine disturbs far less); peak RSS is the largest
single process. TorchFix runs on the dense corpus only (on torch's source one run takes ~17 min).
The dense ratio is also measured paired (``--pairs``, 8 by default: flake8 alone and with the
plugin back to back, ABBA order) and given with an exact 95% interval: the rounds are minutes
apart, and this machine's speed drifts more than the plugin costs between them. A full run (3
rounds, 8 pairs, both corpora) takes about 45 minutes on 2 cores; ``--quick`` (1 round, 5 editor
runs, and ``--pairs 0`` unless given) about 10. Not part of the test suite.
"""
from __future__ import annotations

import argparse
import datetime
import glob
import importlib.util
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from typing import Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WORK = os.environ.get("TENSORCOPY_BENCH_WORK", os.path.join(HERE, ".work"))
TORCHFIX = "torchfix==0.7.0"
#: the editor runs' files, relative to the dense corpus (picked automatically when absent)
EDITOR_SCRIPT = "eriklindernoren+PyTorch-GAN/implementations/cluster_gan/clustergan.py"
EDITOR_PLAIN = ("NVIDIA+apex/apex/contrib/sparsity/permutation_search_kernels/"
                "permutation_utilities.py")
#: issue 23's targets (at most): the rounds' ratios and the paired ones are judged on the same
DENSE_TARGET, OWN_COST_TARGET, TORCH_TARGET = 1.10, 1 / 60, 1.10
EDITOR_TARGETS = {"training script": 1.15, "no candidate": 1.05}


def default_torch() -> Optional[str]:
    spec = importlib.util.find_spec("torch")  # locates the package without importing it
    return os.path.dirname(spec.origin) if spec and spec.origin else None


def corpus_name(key: str) -> str:
    """A corpus by name and pinned commits, never by where it lies on this machine."""
    if key == "torch":
        try:
            from importlib.metadata import version
            return f"torch {version('torch')}'s installed Python source (site-packages/torch)"
        except Exception:  # pragma: no cover - torch's metadata unreadable
            return "torch's installed Python source (site-packages/torch)"
    return ("the `dense = true` repositories of benchmarks/corpora.toml at their pinned commits "
            "(`python benchmarks/corpora.py materialise DIR --dense`)")


def py_files(corpus: str) -> List[str]:
    return sorted(glob.glob(os.path.join(corpus, "**", "*.py"), recursive=True))


def corpus_stats(corpus: str) -> Tuple[int, int]:
    files = py_files(corpus)
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
    want = " ".join(packages)
    if not os.path.exists(marker) or open(marker).read() != want or name == "tensorcopy":
        print(f"benchmarks: creating {name} environment ({want})", file=sys.stderr)
        venv.EnvBuilder(with_pip=True, clear=True).create(path)
        subprocess.run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check", *packages],
                       check=True)
        with open(marker, "w") as fh:
            fh.write(want)
    return py


def flake8_envs(f8: str) -> Tuple[str, str]:
    """The pythons of flake8 alone and of flake8 + tensorcopy (installed from a clean copy of
    this checkout: no build output, caches or ``.git``)."""
    base = make_env("flake8", [f8])
    clean = os.path.join(tempfile.mkdtemp(prefix="tensorcopy-bench-"), "src")
    shutil.copytree(ROOT, clean, ignore=shutil.ignore_patterns(
        "build", ".work", "*.egg-info", ".git", "__pycache__", ".hypothesis", ".pytest_cache",
        ".tensorcopy_cache"))
    return base, make_env("tensorcopy", [f8, clean])


class Run:
    __slots__ = ("wall", "cpu", "rss", "code")

    def __init__(self, wall: float, cpu: float, rss: int, code: int) -> None:
        self.wall, self.cpu, self.rss, self.code = wall, cpu, rss, code


def timed(cmd: List[str], cwd: str, stdin: Optional[str] = None) -> Run:
    """Wall seconds, CPU seconds (user + system, children included), peak RSS in MiB, exit code."""
    fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
    try:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=fin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                cwd=cwd)
        # stderr is small here (warnings at most); read after exit
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
    finally:
        if stdin:
            fin.close()
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    code = os.waitstatus_to_exitcode(status)
    proc.returncode = code
    if "Traceback" in err or ("failed" in err.lower() and "plugin" in err.lower()):
        print(f"benchmarks: {' '.join(cmd[:3])}... reported:\n{err[-2000:]}", file=sys.stderr)
    return Run(elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024, code)


PARSE_ALL = """
import glob, os, sys
import ast
files = sorted(glob.glob(os.path.join(sys.argv[1], '**', '*.py'), recursive=True))
for f in files:
    with open(f, encoding='utf-8', errors='replace') as fh:
        src = fh.read()
    try:
        ast.parse(src)
    except Exception:
        pass
"""


def pick_editor_files(dense: str, ours_py: str) -> Tuple[str, str]:
    """The training script with diagnostics and the file without candidates for editor runs."""
    script, plain = os.path.join(dense, EDITOR_SCRIPT), os.path.join(dense, EDITOR_PLAIN)
    if os.path.isfile(script) and os.path.isfile(plain):
        return script, plain
    code = (
        "import ast, glob, os, sys\n"
        "from flake8_tensorcopy import lint_source\n"
        "from flake8_tensorcopy.syntax.prefilter import SHAPES\n"
        "best = plain = None\n"
        "for f in sorted(glob.glob(os.path.join(sys.argv[1], '**', '*.py'), recursive=True)):\n"
        "    s = open(f, encoding='utf-8', errors='replace').read()\n"
        "    n = s.count('\\n')\n"
        "    if not 450 <= n <= 800: continue\n"
        "    if SHAPES.search(s) is None:\n"
        "        if plain is None or abs(n - 600) < abs(plain[0] - 600): plain = (n, f)\n"
        "        continue\n"
        "    d = len(lint_source(s))\n"
        "    if d and (best is None or d > best[0]): best = (d, f)\n"
        "print(best[1]); print(plain[1])\n")
    out = subprocess.run([ours_py, "-c", code, dense], capture_output=True, text=True, check=True)
    script, plain = out.stdout.split()
    return script, plain


def lines_of(path: str) -> int:
    with open(path, "rb") as fh:
        return fh.read().count(b"\n")


def _paired(a: List[float], b: List[float]) -> Dict[str, float]:
    """The ratio a/b and the difference a - b of paired timings: Hodges-Lehmann estimates with
    their exact 95% intervals (the verifier's ``walsh_interval``; any number of pairs)."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from flake8_tensorcopy.verify.stats import walsh_interval

    r = walsh_interval([math.log(x / y) for x, y in zip(a, b)])
    d = walsh_interval([x - y for x, y in zip(a, b)])
    return {"ratio": math.exp(r[0]), "ratio_low": math.exp(r[1]), "ratio_high": math.exp(r[2]),
            "diff": d[0], "diff_low": d[1], "diff_high": d[2]}


def _verdict(low: float, high: float, target: float) -> str:
    return "met" if high <= target else "not met" if low > target else "not shown"


def paired_rows(pairs: Dict[str, List["Run"]], runs: Dict[str, List["Run"]],
                torchfix: bool) -> List[str]:
    """Markdown rows of the paired dense figures: flake8 + tensorcopy / flake8, and (with
    TorchFix's rounds) tensorcopy's own cost over TorchFix's, the latter as the paired
    difference over TorchFix's median own cost from the rounds."""
    a, b = pairs["dense: flake8 + tensorcopy"], pairs["dense: flake8"]
    if len(a) < 2:
        return []
    out = []
    cmp = {w: _paired([getattr(x, w) for x in a], [getattr(x, w) for x in b])
           for w in ("wall", "cpu")}

    def cell(c: Dict[str, float], key: str, fmt: str = "{:.3f}") -> str:
        return (fmt.format(c[key]) + " [" + fmt.format(c[key + "_low"]) + ", "
                + fmt.format(c[key + "_high"]) + "]")
    out.append(f"| dense: flake8 + tensorcopy / flake8 | {cell(cmp['wall'], 'ratio')} | "
               f"{cell(cmp['cpu'], 'ratio')} | <= {DENSE_TARGET:g} | "
               f"{_verdict(cmp['wall']['ratio_low'], cmp['wall']['ratio_high'], DENSE_TARGET)} / "
               f"{_verdict(cmp['cpu']['ratio_low'], cmp['cpu']['ratio_high'], DENSE_TARGET)} |")
    out.append(f"| dense: tensorcopy's own cost (s, flake8 with it minus alone) | "
               f"{cell(cmp['wall'], 'diff')} | {cell(cmp['cpu'], 'diff')} | - | - |")
    tf, f8 = runs.get("dense: flake8 + TorchFix"), runs.get("dense: flake8")
    if torchfix and tf and f8:
        cells, verdicts = [], []
        for w in ("wall", "cpu"):
            own = statistics.median(getattr(x, w) for x in tf) - statistics.median(
                getattr(x, w) for x in f8)
            c = {k: v / own for k, v in cmp[w].items() if k.startswith("diff")}
            cells.append(cell(c, "diff"))
            verdicts.append(_verdict(c["diff_low"], c["diff_high"], OWN_COST_TARGET))
        out.append(f"| dense: tensorcopy's own cost / TorchFix's (its median own cost from the "
                   f"rounds) | {cells[0]} | {cells[1]} | <= {OWN_COST_TARGET:.3f} | {' / '.join(verdicts)} |")
    return out


def editor_row(label: str, with_it: List["Run"], alone: List["Run"], target: float) -> List[str]:
    """The paired row of one editor file: its runs with and without the plugin were made back
    to back (ABBA), so the i-th of each form a pair."""
    n = min(len(with_it), len(alone))
    if n < 6:
        return []
    cells, verdicts = [], []
    for w in ("wall", "cpu"):
        c = _paired([getattr(x, w) for x in with_it[:n]], [getattr(x, w) for x in alone[:n]])
        cells.append(f"{c['ratio']:.3f} [{c['ratio_low']:.3f}, {c['ratio_high']:.3f}]")
        verdicts.append(_verdict(c["ratio_low"], c["ratio_high"], target))
    return [f"| editor, {label}: with / without the plugin ({n} pairs) | {cells[0]} | "
            f"{cells[1]} | <= {target:g} | {' / '.join(verdicts)} |"]


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dense", required=True, metavar="DIR",
                    help="the dense corpus (python benchmarks/corpora.py materialise DIR --dense)")
    ap.add_argument("--torch", metavar="DIR", help="torch's source (default: the installed package)")
    ap.add_argument("--no-torch", action="store_true", help="leave torch's source out")
    ap.add_argument("--rounds", "--runs", type=int, default=3, dest="rounds",
                    help="interleaved rounds; each figure is the median (default 3)")
    ap.add_argument("--editor-runs", type=int, default=10, metavar="N",
                    help="editor runs of each configuration per round (default 10)")
    ap.add_argument("--quick", action="store_true", help="1 round, 5 editor runs per round")
    ap.add_argument("--skip-torchfix", action="store_true", help="leave TorchFix out")
    ap.add_argument("--torchfix-runs", type=int, default=None, metavar="N",
                    help="rounds that include TorchFix (default: all)")
    ap.add_argument("--pairs", type=int, default=None, metavar="N",
                    help="after the rounds, N more runs of flake8 alone and flake8 + tensorcopy "
                         "on the dense corpus back to back (ABBA order), for the paired ratio "
                         "with its 95%% interval (default 8, with --quick 0)")
    ap.add_argument("--output", help="write a Markdown report here (e.g. benchmarks/RESULTS.md)")
    args = ap.parse_args(argv)
    if args.quick:
        args.rounds, args.editor_runs = 1, 5
    if args.pairs is None:
        args.pairs = 0 if args.quick else 8
    began = time.perf_counter()

    dense = os.path.abspath(args.dense)
    if not py_files(dense):
        sys.exit(f"benchmarks: no *.py files under {dense} "
                 "(python benchmarks/corpora.py materialise DIR --dense)")
    corpora: Dict[str, str] = {"dense": dense}
    if not args.no_torch:
        torch_dir = args.torch or default_torch()
        if not torch_dir:
            sys.exit("benchmarks: no installed torch package; pass --torch DIR or --no-torch")
        corpora["torch"] = os.path.abspath(torch_dir)
    stats = {k: corpus_stats(v) for k, v in corpora.items()}

    f8 = f"flake8=={flake8_version()}"
    base, ours = flake8_envs(f8)
    tf = None if args.skip_torchfix else make_env("torchfix", [f8, TORCHFIX])

    def bin_of(py: str, name: str) -> str:
        return os.path.join(os.path.dirname(py), name)

    neutral = tempfile.mkdtemp(prefix="tensorcopy-bench-cwd-")  # no config files to pick up
    project = tempfile.mkdtemp(prefix="tensorcopy-bench-cache-")  # check's cache lives here
    pyproject = os.path.join(project, "pyproject.toml")
    with open(pyproject, "w") as fh:
        fh.write("[tool.tensorcopy]\n")
    cache_dir = os.path.join(project, ".tensorcopy_cache")

    script, plain = pick_editor_files(dense, ours)
    editor_files = {"training script": script, "no candidate": plain}

    # name -> (corpus key or "editor", command, stdin file, before-hook)
    configs: Dict[str, Tuple[str, List[str], Optional[str], Optional[str]]] = {}
    for key, path in corpora.items():
        configs[f"{key}: flake8"] = (key, [bin_of(base, "flake8"), "--jobs", "1", "--exit-zero", path], None, None)
        configs[f"{key}: flake8 + tensorcopy"] = (key, [bin_of(ours, "flake8"), "--jobs", "1", "--exit-zero", path], None, None)
        if key == "dense" and tf:
            configs[f"{key}: flake8 + TorchFix"] = (key, [bin_of(tf, "flake8"), "--jobs", "1", "--exit-zero", path], None, None)
        configs[f"{key}: ast.parse of every file (floor)"] = (key, [ours, "-c", PARSE_ALL, path], None, None)
        if key == "dense":
            check = [bin_of(ours, "tensorcopy"), "check", "--config", pyproject, "--exit-zero",
                     "--output-format", "concise"]
            configs["dense: tensorcopy check --jobs 1, first run"] = (key, check + ["--jobs", "1", path], None, "clear")
            configs["dense: tensorcopy check --jobs 1, second run (cached)"] = (key, check + ["--jobs", "1", path], None, None)
            configs[f"dense: tensorcopy check ({os.cpu_count()} processes), first run"] = (key, check + [path], None, "clear")
            configs[f"dense: tensorcopy check ({os.cpu_count()} processes), second run (cached)"] = (key, check + [path], None, None)
    for label, path in editor_files.items():
        for who, py in (("flake8", base), ("flake8 + tensorcopy", ours)):
            configs[f"editor, {label}: {who}"] = (
                "editor", [bin_of(py, "flake8"), "--stdin-display-name", os.path.basename(path), "-"],
                path, None)

    runs: Dict[str, List[Run]] = {k: [] for k in configs}
    tf_rounds = args.rounds if args.torchfix_runs is None else max(1, min(args.rounds, args.torchfix_runs))
    for r in range(args.rounds):
        editor_names = [n for n, c in configs.items() if c[0] == "editor"]
        for name, (key, cmd, stdin, hook) in configs.items():
            if key == "editor":
                continue
            if "TorchFix" in name and r >= tf_rounds:
                continue
            if hook == "clear":
                shutil.rmtree(cache_dir, ignore_errors=True)
            res = timed(cmd, neutral, stdin)
            runs[name].append(res)
            print(f"round {r + 1}/{args.rounds}: {name}: {res.wall:.2f} s wall, {res.cpu:.2f} s CPU, "
                  f"{res.rss} MiB (exit {res.code})", file=sys.stderr, flush=True)
        for i in range(args.editor_runs):  # interleaved: each editor configuration in turn,
            # the order reversed every other time (ABBA), so that each with/without pair of runs
            # is back to back and neither always goes first
            for name in (editor_names if i % 2 == 0 else editor_names[::-1]):
                _, cmd, stdin, _ = configs[name]
                runs[name].append(timed(cmd, neutral, stdin))
        for name in editor_names:
            w = statistics.median(x.wall for x in runs[name])
            print(f"round {r + 1}/{args.rounds}: {name}: median {w:.3f} s wall so far",
                  file=sys.stderr, flush=True)

    # the dense ratio, paired: each pair's two runs back to back, their order alternating (ABBA),
    # so that the machine's drift falls on both; the rounds above are minutes apart
    pair_runs: Dict[str, List[Run]] = {"dense: flake8": [], "dense: flake8 + tensorcopy": []}
    for i in range(args.pairs):
        order = list(pair_runs) if i % 2 == 0 else list(reversed(list(pair_runs)))
        for name in order:
            pair_runs[name].append(timed(configs[name][1], neutral))
        print(f"pair {i + 1}/{args.pairs}: " + ", ".join(
            f"{n}: {pair_runs[n][-1].cpu:.2f} s CPU" for n in pair_runs), file=sys.stderr, flush=True)

    def med(name: str, what: str = "wall") -> float:
        return statistics.median(getattr(x, what) for x in runs[name])

    def peak(name: str) -> int:
        return max(x.rss for x in runs[name])

    ratios: List[Tuple[str, str, float, float, Optional[float], bool]] = []

    def ratio(label: str, a: str, b: str, target: Optional[float], at_most: bool = True,
              fn=None) -> None:
        if fn is None and (not runs.get(a) or not runs.get(b)):
            return
        if fn is None:
            w, c = med(a) / med(b), med(a, "cpu") / med(b, "cpu")
        else:
            w, c = fn("wall"), fn("cpu")
        ratios.append((label, f"{a} / {b}" if fn is None else b, w, c, target, at_most))

    ratio("dense: flake8 + tensorcopy / flake8", "dense: flake8 + tensorcopy", "dense: flake8", DENSE_TARGET)
    if "dense: flake8 + TorchFix" in runs and runs["dense: flake8 + TorchFix"]:
        def own(what: str) -> float:
            ours_own = med("dense: flake8 + tensorcopy", what) - med("dense: flake8", what)
            tf_own = med("dense: flake8 + TorchFix", what) - med("dense: flake8", what)
            return ours_own / tf_own if tf_own > 0 else float("nan")

        ratio("dense: tensorcopy's own cost / TorchFix's own cost", "", "(each: flake8 with it minus flake8 alone)",
              OWN_COST_TARGET, fn=own)
    if "torch" in corpora:
        ratio("torch: flake8 + tensorcopy / flake8", "torch: flake8 + tensorcopy", "torch: flake8", TORCH_TARGET)
    ratio("editor, training script: with / without the plugin",
          "editor, training script: flake8 + tensorcopy", "editor, training script: flake8",
          EDITOR_TARGETS["training script"])
    ratio("editor, no candidate: with / without the plugin",
          "editor, no candidate: flake8 + tensorcopy", "editor, no candidate: flake8",
          EDITOR_TARGETS["no candidate"])
    for jobs in ("--jobs 1", f"{os.cpu_count()} processes"):
        ratio(f"dense: tensorcopy check ({jobs}) first run / second run (cached)",
              f"dense: tensorcopy check {jobs}, first run" if jobs == "--jobs 1" else f"dense: tensorcopy check ({jobs}), first run",
              f"dense: tensorcopy check {jobs}, second run (cached)" if jobs == "--jobs 1" else f"dense: tensorcopy check ({jobs}), second run (cached)",
              20, at_most=False)
    total = time.perf_counter() - began

    lines = [
        "# Benchmark results",
        "",
        f"- date: {datetime.date.today().isoformat()}",
        f"- machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores (shared; wall "
        "times are noisy, CPU times much less so; every ratio is measured side by side)",
        f"- Python {platform.python_version()}, {f8}, TorchFix {TORCHFIX.split('==')[1]}, libcst as each environment resolved it",
    ]
    for key, path in corpora.items():
        n, nl = stats[key]
        lines.append(f"- corpus `{key}`: {corpus_name(key)} ({n} files, {nl:,} lines)")
    lines += [
        f"- editor files: `{os.path.relpath(script, dense)}` ({lines_of(script)} lines), "
        f"`{os.path.relpath(plain, dense)}` ({lines_of(plain)} lines, no candidate)",
        f"- method: `python benchmarks/run.py --dense DIR --rounds {args.rounds} --editor-runs "
        f"{args.editor_runs}" + (f" --torchfix-runs {tf_rounds}" if tf and tf_rounds != args.rounds else "")
        + (f" --pairs {args.pairs}" if args.pairs else "")
        + "`" + f"; every configuration once per round ({args.editor_runs} times for editor runs, "
        "interleaved), rounds interleaved, flake8 single process (`--jobs 1`), medians; each tool "
        "in its own virtual environment; process start included everywhere",
        f"- this run took {total / 60:.0f} minutes",
        "",
        "| configuration | median wall (s) | median CPU (s) | all wall (s) | peak RSS (MiB) |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name in configs:
        if not runs[name]:
            continue
        alls = ", ".join(f"{x.wall:.2f}" for x in runs[name]) if len(runs[name]) <= 5 else \
            f"{min(x.wall for x in runs[name]):.3f} .. {max(x.wall for x in runs[name]):.3f} ({len(runs[name])} runs)"
        lines.append(f"| {name} | {med(name):.3f} | {med(name, 'cpu'):.3f} | {alls} | {peak(name)} |")
    lines += ["", "| ratio | wall | CPU | target | met (wall / CPU) |", "| --- | --- | --- | --- | --- |"]
    paired = paired_rows(pair_runs, runs, tf is not None)
    for label, target in EDITOR_TARGETS.items():
        paired += editor_row(label, runs[f"editor, {label}: flake8 + tensorcopy"],
                             runs[f"editor, {label}: flake8"], target)
    for label, _, w, c, target, at_most in ratios:
        def ok(v: float) -> str:
            if target is None:
                return "-"
            return "yes" if (v <= target if at_most else v >= target) else "no"
        t = "-" if target is None else (("<= " if at_most else ">= ") + (f"{target:.3f}" if target < 1 else f"{target:g}"))
        lines.append(f"| {label} | {w:.3f} | {c:.3f} | {t} | {ok(w)} / {ok(c)} |")
    if paired:
        lines += ["", f"Paired (the dense corpus: {args.pairs} pairs; the editor files: their runs "
                  "above; each pair's two runs back to back, ABBA order): the Hodges-Lehmann "
                  "estimate with its exact 95% interval "
                  "(`flake8_tensorcopy.verify.stats.walsh_interval`, the verifier's own); a "
                  "target is met when the whole interval is within it, not met when the whole "
                  "interval is past it, not shown otherwise.", "",
                  "| paired ratio | wall | CPU | target | verdict (wall / CPU) |",
                  "| --- | --- | --- | --- | --- |"]
        lines += paired
    lines.append("")
    text = "\n".join(lines)
    print(text)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
    shutil.rmtree(neutral, ignore_errors=True)
    shutil.rmtree(project, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
