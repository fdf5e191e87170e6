"""Precision and recall of TEN404/TEN405/TEN406 on the sites labeled for issue 44.

    python benchmarks/precision/score_issue44.py CORPUS EXTRA [--mirror ROOT] [--write FILE]

CORPUS holds the repositories of ``benchmarks/corpora.toml`` (``python benchmarks/corpora.py
materialise CORPUS``); EXTRA receives the other labeled repositories at their labeled commits
(every *.py file of the tree, from local mirrors ROOT/<owner>+<name>/repo; default
$TENSORCOPY_MIRROR). The linter runs once per tree (``check --select
TEN404,TEN405,TEN406 --output-format json``, with whatever flake8_tensorcopy the interpreter
imports). A labeled site counts as reported when a diagnostic of its expected code stands on its
binding line or on its write line (the rules may report either); a diagnostic on a site labeled
``none`` is a false alarm; ``unknown`` sites are left out. Diagnostics on unlabeled lines are
listed: they must be labeled before the figures mean anything.
"""
import argparse
import csv
import os
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
LABELS = os.path.join(HERE, "labels_issue44.csv")
CODES = ("TEN404", "TEN405", "TEN406")

sys.path.insert(0, os.path.dirname(HERE))
import corpora  # noqa: E402
import scoring  # noqa: E402


def materialise(repo, commit, dest, mirror):
    try:
        out, _ = corpora.materialise_repo({"name": repo, "commit": commit}, dest, mirror,
                                          folder=f"{corpora.slug(repo)}@{commit[:12]}")
    except corpora.CorpusError as exc:
        raise SystemExit(str(exc)) from None
    return out


def diagnostics(tree):
    return {(os.path.normpath(d["filename"]), int(d["location"]["row"]), d["code"])
            for d in scoring.diagnostics(tree, CODES)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("extra")
    ap.add_argument("--mirror", default=os.environ.get("TENSORCOPY_MIRROR"))
    ap.add_argument("--labels", default=LABELS)
    ap.add_argument("--write", default="")
    args = ap.parse_args(argv)
    if not args.mirror:
        ap.error("needs --mirror ROOT (or $TENSORCOPY_MIRROR) for the repositories outside CORPUS")
    with open(args.labels, newline="") as fh:
        labels = list(csv.DictReader(fh))
    corpus_repos = set(os.listdir(args.corpus))
    trees = defaultdict(list)
    for r in labels:
        slug = r["repo"].replace("/", "+")
        if slug in corpus_repos:
            tree = os.path.join(args.corpus, slug)
        else:
            tree = materialise(r["repo"], r["commit"], args.extra, args.mirror)
        trees[tree].append(r)
    hits, positives, false = defaultdict(int), defaultdict(int), defaultdict(int)
    lines = []
    for tree, sites in sorted(trees.items()):
        found = diagnostics(tree)
        labeled = set()
        for r in sites:
            keys = {(os.path.normpath(r["path"]), int(r["line"]))}
            if r.get("write_line"):
                keys.add((os.path.normpath(r["path"]), int(r["write_line"])))
            labeled |= keys
            reported = {c for (p, ln, c) in found if (p, ln) in keys}
            where = f"{r['repo']}@{r['commit'][:8]} {r['path']}:{r['line']}"
            if r["expected"] == "unknown":
                continue
            if r["expected"] in CODES:
                positives[r["expected"]] += 1
                if r["expected"] in reported:
                    hits[r["expected"]] += 1
                else:
                    lines.append(f"{r['expected']} miss  {where}  ({r['reason']})")
            for c in reported - {r["expected"]}:
                false[c] += 1
                lines.append(f"{c} false {where}  ({r['reason']})")
        for p, ln, c in sorted(found):
            if (p, ln) not in labeled:
                lines.append(f"{c} unlabeled {os.path.basename(tree)} {p}:{ln}")
    table = scoring.rule_table(CODES, positives, hits, false, "labeled positives")
    text = "\n".join(table + [""] + lines)
    print(text)
    if args.write:
        with open(args.write, "w") as fh:
            fh.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
