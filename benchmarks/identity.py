"""Byte-identity check for refactors: the outputs users see, before and after a change.

For every folder given (each a project root: a materialised repository, or a copy of torch's
source), runs, in that folder, with no cache:

    python -m flake8_tensorcopy check --output-format json --no-cache .
    python -m flake8_tensorcopy fix --unsafe-fixes --diff --no-cache .

and writes each output to OUT/<folder name>.check.json and OUT/<folder name>.fix.diff, with a
summary (diagnostics and changed lines per folder, sha256 of each output) in OUT/SUMMARY.txt.
`compare A B` then says whether two such output folders are byte-identical.

    python benchmarks/identity.py run OUT DIR [DIR ...] [--python PY] [--pythonpath P]
    python benchmarks/identity.py compare OUT_BEFORE OUT_AFTER

`--pythonpath` puts another checkout first on the path (a worktree of the commit before the
change), so both sides run from one environment.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path


def _run(py, pythonpath, folder, args):
    env = dict(os.environ)
    # run inside a package's own folder (torch's source) without its subpackages shadowing the
    # standard library (torch/signal, torch/types...): the current folder is not put on sys.path
    env["PYTHONSAFEPATH"] = "1"
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    proc = subprocess.run([py, "-m", "flake8_tensorcopy", *args], cwd=folder, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return proc.returncode, proc.stdout, proc.stderr


def run(out, folders, py, pythonpath):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for folder in folders:
        name = Path(folder).resolve().name
        rc1, check, err1 = _run(py, pythonpath, folder,
                                ["check", "--output-format", "json", "--no-cache", "--jobs", "2", "."])
        rc2, diff, err2 = _run(py, pythonpath, folder,
                               ["fix", "--unsafe-fixes", "--diff", "--no-cache", "--jobs", "2", "."])
        (out / f"{name}.check.json").write_bytes(check)
        (out / f"{name}.fix.diff").write_bytes(diff)
        (out / f"{name}.stderr").write_bytes(err1 + b"\n----\n" + err2)
        try:
            count = len(json.loads(check or b"[]"))
        except ValueError:
            count = -1
        changed = sum(1 for line in diff.splitlines() if line.startswith(b"+") and not line.startswith(b"+++"))
        lines.append(f"{name}\tcheck rc={rc1} diagnostics={count} sha256={hashlib.sha256(check).hexdigest()[:16]}"
                     f"\tfix rc={rc2} added_lines={changed} sha256={hashlib.sha256(diff).hexdigest()[:16]}")
        print(lines[-1], flush=True)
    (out / "SUMMARY.txt").write_text("\n".join(lines) + "\n")


def compare(a, b):
    a, b = Path(a), Path(b)
    names = sorted({p.name for p in a.iterdir() if p.suffix in (".json", ".diff")}
                   | {p.name for p in b.iterdir() if p.suffix in (".json", ".diff")})
    differ = [n for n in names if not (a / n).exists() or not (b / n).exists()
              or (a / n).read_bytes() != (b / n).read_bytes()]
    for n in differ:
        print(f"DIFFERS: {n}")
    print(f"{len(names) - len(differ)} of {len(names)} outputs byte-identical")
    return 1 if differ else 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("out")
    r.add_argument("folders", nargs="+")
    r.add_argument("--python", default=sys.executable)
    r.add_argument("--pythonpath", default="")
    c = sub.add_parser("compare")
    c.add_argument("before")
    c.add_argument("after")
    args = parser.parse_args(argv)
    if args.cmd == "run":
        run(args.out, args.folders, args.python, args.pythonpath)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
