"""Safe and unsafe fixes per rule over folders of Python files (issue 45's cost of the
closed-world policy), through the door every front end uses (``lint.diagnose``, the fixer's
view: every definition built).

    python benchmarks/safe_counts.py [--generated N --seed S] PATH...

``--generated N`` adds N programs of the differential fix tester's generator
(``benchmarks/fixproof.py``) written to a temporary folder. Prints one JSON object:
{corpus: {code: [diagnostics, safe fixes, unsafe fixes]}}.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from collections import defaultdict
from typing import Dict, Iterator, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)


def python_files(path: str) -> Iterator[str]:
    if os.path.isfile(path):
        yield path
        return
    for root, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                yield os.path.join(root, name)


def count(paths: List[str]) -> Dict[str, List[int]]:
    from flake8_tensorcopy.config import Config
    from flake8_tensorcopy.lint import diagnose
    from flake8_tensorcopy.syntax.parse import LintError

    cfg = Config()
    out: Dict[str, List[int]] = defaultdict(lambda: [0, 0, 0])
    for path in paths:
        for f in python_files(path):
            try:
                with open(f, encoding="utf-8") as fh:
                    text = fh.read()
                diags = diagnose(text, f, cfg, for_fix=True)
            except (LintError, UnicodeDecodeError, SyntaxError, ValueError):
                continue
            for d in diags:
                row = out[d.code]
                row[0] += 1
                if d.fix is not None:
                    row[1 if d.fix.is_safe else 2] += 1
    return dict(sorted(out.items()))


def generated(n: int, seed: int, folder: str) -> str:
    import fixproof

    rng = random.Random(seed)
    for i in range(n):
        program, _ = fixproof.make_program(rng, seed * 100000 + i)
        with open(os.path.join(folder, f"p{i:05d}.py"), "w", encoding="utf-8") as fh:
            fh.write(program)
    return folder


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--generated", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    report = {}
    for p in args.paths:
        report[p] = count([p])
    if args.generated:
        with tempfile.TemporaryDirectory() as tmp:
            report[f"generated:{args.generated}:seed{args.seed}"] = count(
                [generated(args.generated, args.seed, tmp)])
    json.dump(report, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
