"""Precision and recall of TEN402/TEN403/TEN501 on the sites labeled for issue 25.

    python benchmarks/precision/score_issue25.py [--codes TEN402,TEN403] [--labels CSV] ROOT...

Each ROOT holds materialised repositories (``<owner>+<name>/``, as ``python
benchmarks/corpora.py materialise ROOT`` writes them, with ``--manifest
benchmarks/corpora_issue25.toml`` for that manifest's; ``torch/`` for torch's own source). Without ROOT, the folders listed in $TENSORCOPY_CORPORA
(separated by ``os.pathsep``) are used. The linter runs once per labeled repository (``check --select CODES``), with whatever
flake8_tensorcopy the interpreter imports (PYTHONPATH picks a worktree); a code the linter does
not know is left out with a note. A diagnostic on a labeled line is a hit when the label expects
its code, a false alarm otherwise; an unlabeled diagnostic is listed (it must be labeled before
the figures mean anything), and so is every labeled positive the linter does not report (a miss).
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
CODES = ("TEN402", "TEN403", "TEN501")


def slug(repo: str) -> str:
    return "torch" if repo.startswith("pytorch/pytorch") else repo.replace("/", "+")


def known_codes(codes, cwd):
    # cwd: not this checkout, whose own package `python -m` would import ahead of PYTHONPATH
    out = subprocess.run([sys.executable, "-m", "flake8_tensorcopy", "rules", "--output-format",
                          "json"], capture_output=True, text=True, cwd=cwd).stdout
    try:
        have = {r["code"] for r in json.loads(out)}
    except (ValueError, KeyError, TypeError):
        return list(codes)
    for c in codes:
        if c not in have:
            print(f"note: this flake8_tensorcopy has no {c}; its labels are not scored")
    return [c for c in codes if c in have]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--codes", default=",".join(CODES))
    ap.add_argument("--labels", default=os.path.join(HERE, "labels_issue25.csv"))
    ap.add_argument("roots", nargs="*", metavar="ROOT",
                    help="folders of materialised repositories (default: $TENSORCOPY_CORPORA)")
    args = ap.parse_args(argv)
    if not args.roots:
        args.roots = [r for r in os.environ.get("TENSORCOPY_CORPORA", "").split(os.pathsep) if r]
    if not args.roots:
        ap.error("give ROOT, a folder of materialised repositories (benchmarks/corpora.py "
                 "materialise ROOT), or set TENSORCOPY_CORPORA")
    for root in args.roots:
        if not os.path.isdir(root):
            print(f"score_issue25.py: {root} is not a folder", file=sys.stderr)
            return 1
    codes = known_codes([c.strip() for c in args.codes.split(",") if c.strip()],
                        tempfile.gettempdir())
    if not codes:
        return 1
    labels = list(csv.DictReader(open(args.labels, encoding="utf-8")))
    by_site = {(slug(r["repo"]), r["path"], int(r["line"])): r for r in labels}
    wanted = {k[0] for k in by_site}
    diags, seen = [], set()
    for root in args.roots:
        for repo in sorted(os.listdir(root)):
            if repo not in wanted or repo in seen:
                continue
            seen.add(repo)
            out = subprocess.run([sys.executable, "-m", "flake8_tensorcopy", "check", "--no-cache",
                                  "--exit-zero", "--select", ",".join(codes), "--output-format",
                                  "json", "."], cwd=os.path.join(root, repo), capture_output=True,
                                 text=True).stdout
            for d in json.loads(out or "[]"):
                loc = d.get("location") or d
                diags.append((d["code"], repo, os.path.normpath(d["filename"]),
                              loc.get("row", loc.get("line"))))
    missing = sorted(wanted - seen)
    if missing:
        print("not materialised (their labels count as unscored): " + ", ".join(missing))
    flagged, hits, false = Counter(), set(), []
    for code, repo, path, line in diags:
        site = by_site.get((repo, path, line))
        if site is None:
            print(f"unlabeled: {code} {repo} {path}:{line}")
        elif site["expected"] == code:
            hits.add((code, repo, path, line))
        else:
            false.append((code, repo, path, line, site["expected"]))
        flagged[(code, site["expected"] == code if site else None)] += 1
    for code in codes:
        tp = flagged[(code, True)]
        fp = flagged[(code, False)]
        pos = [r for r in labels if r["expected"] == code and slug(r["repo"]) in seen]
        prec = f"{tp / (tp + fp):.2f}" if tp + fp else "n/a"
        rec = f"{tp / len(pos):.2f}" if pos else "n/a"
        print(f"{code}: {tp + fp} diagnostics, {tp} true, {fp} false; {len(pos)} labeled "
              f"positives; precision {prec}, recall {rec}")
        for c, repo, path, line, exp in false:
            if c == code:
                print(f"  false alarm: {repo} {path}:{line} (label: {exp})")
        for r in pos:
            if (code, slug(r["repo"]), r["path"], int(r["line"])) not in hits:
                print(f"  miss: {slug(r['repo'])} {r['path']}:{r['line']}")
    print(f"{len(labels)} labeled sites: " + ", ".join(f"{k}={v}" for k, v in sorted(
        Counter(r['shape'] for r in labels).items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
