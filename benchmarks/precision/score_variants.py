"""Score ``tensorcopy check`` on a folder of marked programs (the red-team variant sets in
``benchmarks/variants``): a line ending in ``# expect: TEN501`` (codes comma separated) must
get those diagnostics; ``# ok`` marks a labelled negative; ``# either: CODE`` a site left out of
the scores (a report there is neither found nor a false alarm; ``# either`` alone: for every
code). Every other report of a scored
code is a false alarm. Per code: expected, found, missed, false alarms, recall and precision,
and each missed or false site.

    python benchmarks/precision/score_variants.py DIR [--codes TEN501,TEN402]

Runs the installed ``tensorcopy`` (``--no-cache``, every rule) on a copy of DIR in a temporary
folder, one process: a set is its own project there, as it would be in a user's checkout (left
inside this repository, the project index would read the repository as its project, and a
function another file may import stays silent by design). Exit status 0, or 2 for a bad
argument."""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

EXPECT = re.compile(r"#\s*expect:\s*(TEN\d{3}(?:\s*,\s*TEN\d{3})*)")
EITHER = re.compile(r"#\s*either\b(?::\s*(TEN\d{3}(?:\s*,\s*TEN\d{3})*))?")
OK = re.compile(r"#\s*ok\b")


def marks(root: str):
    """(expected: code -> {(path, line)}, either: code -> {(path, line)}, negatives: count)."""
    expected, either = collections.defaultdict(set), collections.defaultdict(set)
    negatives = 0
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.relpath(os.path.join(folder, name), root)
            with open(os.path.join(folder, name), encoding="utf-8") as fh:
                for line_no, line in enumerate(fh, 1):
                    for pattern, into in ((EXPECT, expected), (EITHER, either)):
                        m = pattern.search(line)
                        if m:  # ``# either`` without a code: every code
                            for code in re.split(r"\s*,\s*", m.group(1) or "*"):
                                into[code].add((path, line_no))
                    if OK.search(line):
                        negatives += 1
    return expected, either, negatives


def reported(root: str):
    """code -> {(path, line)} of ``tensorcopy check`` on a copy of ``root``."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "set")
        shutil.copytree(root, copy, ignore=shutil.ignore_patterns("__pycache__"))
        proc = subprocess.run(
            [sys.executable, "-m", "flake8_tensorcopy", "check", "--no-cache", "--exit-zero",
             "--output-format", "json", "set"],
            cwd=tmp, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            sys.exit(f"score_variants.py: tensorcopy check failed: {proc.stderr.strip()}")
        out = collections.defaultdict(set)
        for d in json.loads(proc.stdout):
            path = os.path.relpath(os.path.join(tmp, d["filename"]), copy)
            out[d["code"]].add((path, d["location"]["row"]))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", help="a folder of marked programs")
    ap.add_argument("--codes", help="only these codes, comma separated (default: every marked one)")
    args = ap.parse_args(argv)
    root = os.path.abspath(args.root)
    if not os.path.isdir(root):
        ap.error(f"{args.root} is not a folder")
    expected, either, negatives = marks(root)
    got = reported(root)
    codes = sorted(expected) if not args.codes else args.codes.split(",")
    print(f"{root}: {negatives} labelled negatives (# ok)")
    for code in codes:
        exp = expected.get(code, set())
        rep = got.get(code, set()) - either.get(code, set()) - either.get("*", set())
        found, missed, false = exp & rep, sorted(exp - rep), sorted(rep - exp)
        recall = f"{len(found) / len(exp):.3f}" if exp else "-"
        precision = f"{len(found) / len(rep):.3f}" if rep else "-"
        print(f"{code}: expected {len(exp)}, found {len(found)}, missed {len(missed)}, "
              f"false alarms {len(false)}; recall {recall}, precision {precision}")
        for what, sites in (("missed", missed), ("false alarm", false)):
            for path, line in sites:
                print(f"  {what}: {path}:{line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
