"""The bug zoo (issue 43): real TEN402/TEN403/TEN501 bug sites from public repositories, with the
fixed versions and correct look-alikes as negatives, scored against the linter.

    python benchmarks/zoo/score.py materialise DIR [--mirror ROOT]   # the pinned files, from mirrors
    python benchmarks/zoo/score.py score DIR [--codes TEN402,TEN403,TEN501] [--write FILE]

`zoo.csv` holds one row per labeled site: repo, commit (40 hex), path, line (1-based, the line the
flagged statement starts on), code (the rule the site belongs to), label (`bug`: the rule should
report it; `ok`: a fixed version or a correct look-alike that no rule may report), source (the
issue, pull request or fix commit that confirms it, or `read` where the label comes from reading
the code alone) and note. Labels were written by reading the code before the linter was run.

`materialise` writes every *.py file of each (repo, commit) under DIR/<owner>+<name>@<commit12>/
(the whole tree, so the project index sees the project) from local bare mirrors
ROOT/<owner>+<name>/repo (default $TENSORCOPY_MIRROR). Nothing fetched is
committed. `score` runs `python -m flake8_tensorcopy check --output-format json --select CODES`
once per tree (with whatever flake8_tensorcopy the interpreter imports; PYTHONPATH picks a
checkout) and prints, per rule, recall (bugs reported / bugs) and precision (reports on labeled
lines that are bugs of that rule / all reports on labeled lines), every miss and every false alarm;
reports on unlabeled lines are listed apart (they are neither hits nor false alarms until labeled).
"""
from __future__ import annotations

import argparse
import csv
import os
import sys
from collections import defaultdict
from typing import Dict, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpora  # noqa: E402
import scoring  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ZOO = os.path.join(HERE, "zoo.csv")
CODES = ("TEN402", "TEN403", "TEN501")


def rows(path: str = ZOO) -> List[Dict[str, str]]:
    with open(path, newline="") as fh:
        out = [r for r in csv.DictReader(fh) if r["repo"] and not r["repo"].startswith("#")]
    for r in out:
        if len(r["commit"]) != 40 or r["label"] not in ("bug", "ok") or r["code"] not in CODES:
            raise SystemExit(f"{path}: bad row {r}")
    return out


def tree_name(repo: str, commit: str) -> str:
    return f"{repo.replace('/', '+')}@{commit[:12]}"


def materialise(dest: str, mirror: str, zoo: str) -> None:
    for repo, commit in sorted({(r["repo"], r["commit"]) for r in rows(zoo)}):
        try:
            _, written = corpora.materialise_repo({"name": repo, "commit": commit}, dest, mirror,
                                                  folder=tree_name(repo, commit))
        except corpora.CorpusError as exc:
            raise SystemExit(str(exc)) from None
        if written:
            print(f"materialised {repo} @ {commit[:12]}", file=sys.stderr)


def score(dest: str, codes: Tuple[str, ...], zoo: str, write: str = "") -> int:
    labeled = rows(zoo)
    by_tree: Dict[str, List[Dict[str, str]]] = defaultdict(list)
    for r in labeled:
        by_tree[tree_name(r["repo"], r["commit"])].append(r)
    hits: Dict[str, int] = defaultdict(int)
    bugs: Dict[str, int] = defaultdict(int)
    false: Dict[str, int] = defaultdict(int)
    misses: List[str] = []
    alarms: List[str] = []
    unlabeled: List[str] = []
    for tree, sites in sorted(by_tree.items()):
        root = os.path.join(dest, tree)
        if not os.path.isdir(root):
            raise SystemExit(f"{root}: not materialised (run `materialise` first)")
        found = {(os.path.normpath(d["filename"]), int(d["location"]["row"]), d["code"])
                 for d in scoring.diagnostics(root, codes)}
        lines = {(os.path.normpath(r["path"]), int(r["line"])) for r in sites}
        lines |= {(os.path.normpath(a.rsplit(":", 1)[0]), int(a.rsplit(":", 1)[1]))
                  for r in sites for a in (r.get("also") or "").split(";") if a}
        for r in sites:
            if r["code"] not in codes:
                continue
            key = (os.path.normpath(r["path"]), int(r["line"]))
            keys = {key} | {(os.path.normpath(a.rsplit(":", 1)[0]), int(a.rsplit(":", 1)[1]))
                            for a in (r.get("also") or "").split(";") if a}
            reported = {c for (p, ln, c) in found if (p, ln) in keys}
            where = f"{r['repo']}@{r['commit'][:8]} {r['path']}:{r['line']}"
            if r["label"] == "bug":
                bugs[r["code"]] += 1
                if r["code"] in reported:
                    hits[r["code"]] += 1
                else:
                    misses.append(f"{r['code']} miss  {where}  ({r['note']})")
            for c in reported - ({r["code"]} if r["label"] == "bug" else set()):
                false[c] += 1
                alarms.append(f"{c} false {where}  ({r['note']})")
        for p, ln, c in sorted(found):
            if (p, ln) not in lines:
                unlabeled.append(f"{c} unlabeled {tree} {p}:{ln}")
    out = scoring.rule_table(codes, bugs, hits, false, "bugs")
    text = "\n".join(out + [""] + misses + alarms + unlabeled)
    print(text)
    if write:
        with open(write, "w") as fh:
            fh.write(text + "\n")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("materialise")
    m.add_argument("dest")
    m.add_argument("--mirror", default=os.environ.get("TENSORCOPY_MIRROR"))
    m.add_argument("--zoo", default=ZOO)
    s = sub.add_parser("score")
    s.add_argument("dest")
    s.add_argument("--codes", default=",".join(CODES))
    s.add_argument("--zoo", default=ZOO)
    s.add_argument("--write", default="")
    args = ap.parse_args(argv)
    if args.cmd == "materialise":
        if not args.mirror:
            ap.error("materialise needs --mirror ROOT (or $TENSORCOPY_MIRROR)")
        materialise(args.dest, args.mirror, args.zoo)
        return 0
    return score(args.dest, tuple(args.codes.split(",")), args.zoo, args.write)


if __name__ == "__main__":
    sys.exit(main())
