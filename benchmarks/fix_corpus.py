"""Run `tensorcopy fix --unsafe-fixes` over a COPY of a corpus of public PyTorch repositories.

    python benchmarks/fix_corpus.py CORPUS [--work DIR] [--jobs N] [--json OUT]

CORPUS (as materialised by benchmarks/corpora.py) holds one folder per
repository (``owner+name``); other folders are ignored. The corpus itself is never written: the
.py files are copied under --work (default: a fresh temporary folder) and fixed there.

Reported:
- fixes made and files changed (the fixer's own count, and files whose bytes differ);
- files that no longer parse after the fix (must be 0);
- fixes and file changes made by a second run (must be 0);
- lines changed that had no diagnostic: changed or deleted original lines outside every
  diagnostic's range, and (stricter) outside every diagnostic's range and its fix's edits
  (TEN401's fix edits the binding line, not the flagged write);
- whether `tensorcopy check` agrees with `flake8 --select TEN` on every file of the original
  corpus: the sets of (path, row, column, code, message) per file.
"""
from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from typing import Dict, List, Set, Tuple

_LINE_END = re.compile(r"\r\n|\r|\n")
_FIXED = re.compile(r"Fixed (\d+) diagnostic\(s\) in (\d+) file\(s\)")
_FLAKE8 = re.compile(r"^(?P<path>.+?):(?P<row>\d+):(?P<col>\d+): (?P<code>TEN\d+) (?P<msg>.*)$")


def repos(corpus: str) -> List[str]:
    return sorted(d for d in os.listdir(corpus)
                  if "+" in d and os.path.isdir(os.path.join(corpus, d)))


def py_files(root: str) -> List[str]:
    out = []
    for base, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", ".git"))
        out.extend(os.path.relpath(os.path.join(base, f), root) for f in sorted(files)
                   if f.endswith(".py"))
    return out


def copy_corpus(corpus: str, work: str) -> List[str]:
    files = []
    for repo in repos(corpus):
        for rel in py_files(os.path.join(corpus, repo)):
            src = os.path.join(corpus, repo, rel)
            if os.path.islink(src):
                continue
            dst = os.path.join(work, repo, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
            files.append(os.path.join(repo, rel))
    return files


def snapshot(root: str, files: List[str]) -> Dict[str, bytes]:
    out = {}
    for rel in files:
        with open(os.path.join(root, rel), "rb") as fh:
            out[rel] = fh.read()
    return out


def run(args: List[str], cwd: str) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True)


def check_json(root: str, jobs: int) -> Tuple[List[dict], str]:
    res = run([sys.executable, "-m", "flake8_tensorcopy", "check", "--exit-zero", "--jobs",
               str(jobs), "--output-format", "json", "."], root)
    return json.loads(res.stdout or "[]"), res.stderr


def flake8_set(root: str, jobs: int) -> Tuple[Dict[str, Set[tuple]], str]:
    res = run([sys.executable, "-m", "flake8", "--isolated", "--select", "TEN", "--exit-zero",
               "--jobs", str(jobs), "."], root)
    out: Dict[str, Set[tuple]] = defaultdict(set)
    for line in res.stdout.splitlines():
        m = _FLAKE8.match(line)
        if m:
            path = os.path.normpath(m["path"])
            out[path].add((int(m["row"]), int(m["col"]), m["code"], m["msg"]))
    return out, res.stderr


def fix(root: str, jobs: int) -> Tuple[int, int, str]:
    res = run([sys.executable, "-m", "flake8_tensorcopy", "fix", "--unsafe-fixes", "--jobs",
               str(jobs), "."], root)
    m = _FIXED.search(res.stderr)
    return (int(m[1]), int(m[2]), res.stderr) if m else (-1, -1, res.stderr)


def line_starts(text: str) -> List[int]:
    return [0] + [m.end() for m in _LINE_END.finditer(text)]


def line_of(starts: List[int], offset: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus", help="a corpus materialised by benchmarks/corpora.py")
    ap.add_argument("--work", help="folder for the copy (must not exist); default: a temp folder")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", help="also write the figures here")
    args = ap.parse_args(argv)
    corpus = os.path.abspath(args.corpus)
    work = args.work or tempfile.mkdtemp(prefix="fix-corpus-")
    if args.work:
        os.makedirs(work)
    t0 = time.monotonic()
    files = copy_corpus(corpus, work)
    original = snapshot(work, files)
    lines_total = sum(b.count(b"\n") for b in original.values())

    # check vs flake8 on the original text (the copy, before any fix: byte-identical)
    diags, check_err = check_json(work, args.jobs)
    flake, flake_err = flake8_set(work, args.jobs)
    by_file: Dict[str, Set[tuple]] = defaultdict(set)
    full: Dict[str, List[dict]] = defaultdict(list)
    for d in diags:
        path = os.path.normpath(os.path.relpath(d["filename"], work)
                                if os.path.isabs(d["filename"]) else d["filename"])
        by_file[path].add((d["location"]["row"], d["location"]["column"], d["code"], d["message"]))
        full[path].append(d)
    disagree = sorted(p for p in set(by_file) | set(flake) if by_file.get(p) != flake.get(p))

    fixes, fixed_files, fix_err = fix(work, args.jobs)
    after = snapshot(work, files)
    changed = [f for f in files if after[f] != original[f]]
    broken = []
    for f in changed:
        try:
            ast.parse(after[f])
        except (SyntaxError, ValueError) as exc:
            broken.append(f"{f}: {exc}")

    fixes2, files2, _ = fix(work, args.jobs)
    again = snapshot(work, files)
    changed2 = [f for f in files if again[f] != after[f]]

    unflagged: List[str] = []
    unflagged_strict: List[str] = []
    for f in changed:
        text = original[f].decode("utf-8", "replace")
        starts = line_starts(text)
        in_diag: Set[int] = set()
        in_edit: Set[int] = set()
        for d in full.get(f, []):
            in_diag.update(range(d["location"]["row"], d["end_location"]["row"] + 1))
            for e in (d.get("fix") or {}).get("edits", []):
                in_edit.update(range(line_of(starts, e["start"]),
                                     line_of(starts, max(e["start"], e["end"] - 1)) + 1))
        before_lines = _LINE_END.split(text)
        after_lines = _LINE_END.split(after[f].decode("utf-8", "replace"))
        for tag, i1, i2, _j1, _j2 in difflib.SequenceMatcher(
                None, before_lines, after_lines, autojunk=False).get_opcodes():
            if tag in ("replace", "delete"):
                for line in range(i1 + 1, i2 + 1):
                    if line not in in_diag and line not in in_edit:
                        unflagged.append(f"{f}:{line}")
                    if line not in in_diag:
                        unflagged_strict.append(f"{f}:{line}")

    figures = {
        "repositories": len(repos(corpus)),
        "files": len(files),
        "lines": lines_total,
        "diagnostics": len(diags),
        "diagnostics_by_code": dict(sorted(Counter(d["code"] for d in diags).items())),
        "fixable_unsafe_included": sum(1 for d in diags if d.get("fix")),
        "fixes_made": fixes,
        "files_fixed_by_count": fixed_files,
        "files_changed": len(changed),
        "parse_failures": broken,
        "second_run_fixes": fixes2,
        "second_run_files_changed": len(changed2),
        "lines_changed_outside_diagnostics_and_fix_edits": unflagged,
        "lines_changed_outside_diagnostic_ranges": len(unflagged_strict),
        "check_equals_flake8_on_every_file": not disagree,
        "files_where_check_and_flake8_disagree": disagree,
        "flake8_diagnostics": sum(len(v) for v in flake.values()),
        "stderr": {"check": check_err[-2000:], "flake8": flake_err[-2000:], "fix": fix_err[-2000:]},
        "seconds": round(time.monotonic() - t0, 1),
        "work": work,
    }
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(figures, fh, indent=2)
    for key, value in figures.items():
        if key == "stderr":
            continue
        if isinstance(value, list):
            print(f"{key}: {len(value)}" + ("" if not value else "  e.g. " + "; ".join(value[:5])))
        else:
            print(f"{key}: {value}")
    ok = not broken and fixes2 == 0 and not changed2 and not unflagged and not disagree
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
