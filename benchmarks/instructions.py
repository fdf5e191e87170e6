"""Instructions executed by whole flake8 processes, flake8 alone and flake8 + tensorcopy, counted
by valgrind's callgrind on the same corpus, side by side.

    python benchmarks/instructions.py --dense DIR [--only SUBDIR ...] [--output FILE]

Wall time on a shared 2-core machine moves by 30% from one run to the next (RESULTS.md's
per-round ratios); an instruction count does not move at all with the machine's load, and with
the hash seed fixed (``PYTHONHASHSEED=0``) two runs of one process give the same count to within
a few parts in a million. So this is the figure that shows a change of a few percent in the
plugin's own cost. It is a measure of work, not of time: cache misses, page faults, the kernel's
work and the wait for the disk are not in it, and a Python process under callgrind runs about 50
times slower (the dense corpus: about 30 minutes a process; the two run at once).

Each process is the virtual environment's own ``python`` running its ``flake8`` (the
environments of ``run.py``, under ``benchmarks/.work/``; the plugin installed from a clean copy
of this checkout), ``--jobs 1``, from a neutral working directory. A run counts as measured only
when flake8 alone reported no TEN finding and flake8 + tensorcopy reported some: a plugin that
failed to load would otherwise pass for a free one. Not part of the test suite (it needs
valgrind and an hour).
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as bench  # noqa: E402  (the environments and the corpus's name)

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
#: a finding of this plugin in flake8's default format (``path:line:col: TEN102 ...``)
_FINDING = re.compile(r": TEN\d{3} ")


def start(python: str, args: List[str], cwd: str,
          stdin: Optional[str] = None) -> "subprocess.Popen[bytes]":
    """Start one process under callgrind (``stdin``: a file it reads); ``finish`` collects it."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)  # the environment's own install, nothing else
    out = tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()
    fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
    try:
        proc = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, *args],
            stdin=fin, stdout=out, stderr=err, cwd=cwd, env=env)
    finally:
        if stdin:
            fin.close()
    proc.out, proc.err = out, err  # type: ignore[attr-defined]
    return proc


def finish(proc: "subprocess.Popen[bytes]") -> Tuple[int, int]:
    """(instructions, TEN findings on stdout) of a process started by ``start``."""
    proc.wait()
    proc.out.seek(0)  # type: ignore[attr-defined]
    proc.err.seek(0)  # type: ignore[attr-defined]
    stdout = proc.out.read().decode(errors="replace")  # type: ignore[attr-defined]
    stderr = proc.err.read().decode(errors="replace")  # type: ignore[attr-defined]
    m = _COLLECTED.search(stderr)
    if m is None:
        raise SystemExit(f"instructions: no count from callgrind (exit {proc.returncode}):\n"
                         f"{stderr[-2000:]}")
    findings = sum(1 for line in stdout.splitlines() if _FINDING.search(line))
    proc.out.close()  # type: ignore[attr-defined]
    proc.err.close()  # type: ignore[attr-defined]
    return int(m.group(1)), findings


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dense", required=True, metavar="DIR",
                    help="the dense corpus (python benchmarks/corpora.py materialise DIR --dense)")
    ap.add_argument("--only", action="append", default=[], metavar="SUBDIR",
                    help="count on these folders of DIR only (repeatable; default: all of it)")
    ap.add_argument("--output", help="write a Markdown report here (e.g. benchmarks/INSTRUCTIONS.md)")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        sys.exit("instructions: valgrind is not installed")
    dense = os.path.abspath(args.dense)
    if not bench.py_files(dense):
        sys.exit(f"instructions: no *.py files under {dense}")
    targets = [os.path.join(dense, d) for d in args.only] or [dense]
    for t in targets:
        if not os.path.isdir(t):
            sys.exit(f"instructions: no folder {t}")
    began = time.perf_counter()

    f8 = f"flake8=={bench.flake8_version()}"
    base, ours = bench.flake8_envs(f8)
    neutral = tempfile.mkdtemp(prefix="tensorcopy-bench-cwd-")
    script, _ = bench.pick_editor_files(dense, ours)

    files = sum(len(bench.py_files(t)) for t in targets)
    lines = sum(bench.corpus_stats(t)[1] for t in targets)
    flake8_args = ["--jobs", "1", "--exit-zero", *targets]
    results: Dict[str, Tuple[int, int]] = {}
    # the editor's one-file run, as run.py has it (the text on stdin): small, so first
    for who, py in (("flake8", base), ("flake8 + tensorcopy", ours)):
        proc = start(py, [os.path.join(os.path.dirname(py), "flake8"), "--exit-zero",
                          "--stdin-display-name", os.path.basename(script), "-"], neutral, script)
        results[f"editor, training script: {who}"] = finish(proc)
        print(f"instructions: editor, {who}: {results[f'editor, training script: {who}'][0]:,}",
              file=sys.stderr, flush=True)
    # the corpus: both at once (each a single process; the counts do not depend on the load)
    procs = {who: start(py, [os.path.join(os.path.dirname(py), "flake8"), *flake8_args], neutral)
             for who, py in (("flake8", base), ("flake8 + tensorcopy", ours))}
    for who, proc in procs.items():
        results[f"dense: {who}"] = finish(proc)
        print(f"instructions: dense, {who}: {results[f'dense: {who}'][0]:,}", file=sys.stderr,
              flush=True)

    problems = []
    for where in ("editor, training script", "dense"):
        if results[f"{where}: flake8"][1] != 0:
            problems.append(f"{where}: flake8 alone reported TEN findings (the plugin leaked in)")
        if results[f"{where}: flake8 + tensorcopy"][1] == 0:
            problems.append(f"{where}: flake8 + tensorcopy reported no TEN finding (not loaded?)")
    for p in problems:
        print(f"instructions: {p}", file=sys.stderr)

    rows = []
    for name, (n, found) in results.items():
        rows.append(f"| {name} | {n / 1e9:.3f} | {found} |")
    ratios = []
    for where in ("dense", "editor, training script"):
        a, b = results[f"{where}: flake8 + tensorcopy"][0], results[f"{where}: flake8"][0]
        ratios.append(f"| {where}: flake8 + tensorcopy / flake8 | {a / b:.4f} | "
                      f"{(a - b) / 1e9:.3f} |")
    try:
        commit = subprocess.run(["git", "-C", bench.ROOT, "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", bench.ROOT, "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True).stdout
        commit += " (with uncommitted changes)" if dirty.strip() else ""
    except (OSError, subprocess.CalledProcessError):
        commit = "an unknown commit"
    what = ", ".join(os.path.relpath(t, dense) for t in targets) if args.only else "all of it"
    report = "\n".join([
        "# Instructions: whole flake8 processes under callgrind",
        "",
        f"- generated by `python benchmarks/instructions.py` at {commit} on "
        f"{datetime.date.today().isoformat()}, "
        f"{platform.python_implementation()} {platform.python_version()}, {f8}, valgrind's callgrind, "
        f"PYTHONHASHSEED=0, `--jobs 1`; {time.perf_counter() - began:.0f} s",
        f"- corpus: {bench.corpus_name('dense')}; {what}: {files} files, {lines:,} lines; editor file: "
        f"`{os.path.relpath(script, dense)}` (the whole process, as an editor runs it per save)",
        "- a count of instructions, not a time: cache misses, page faults, the kernel and the disk "
        "are not in it (RESULTS.md has the wall and CPU times); see the script's docstring",
        "",
        "| process | instructions (G) | TEN findings |",
        "|---|---:|---:|",
        *rows,
        "",
        "| ratio | instructions | plugin's own (G) |",
        "|---|---:|---:|",
        *ratios,
        "",
        *(f"- **not measured: {p}**" for p in problems),
    ]) + "\n"
    print(report)
    if args.output:
        tmp = args.output + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(report)
        os.replace(tmp, args.output)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
