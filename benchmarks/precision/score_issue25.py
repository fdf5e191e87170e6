"""Precision and recall of TEN402/TEN403 on the sites labeled for issue 25.

    python benchmarks/precision/score_issue25.py ROOT [ROOT...]

Each ROOT holds materialised repositories (``<owner>+<name>/``; ``torch/`` for torch's own
source). The linter runs once per repository (``check --select TEN402,TEN403``); a diagnostic on
a labeled line is a hit when the label expects its code, a false alarm otherwise; an unlabeled
diagnostic is listed (it must be labeled before the figures mean anything).
"""
import csv
import json
import os
import subprocess
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
CODES = ("TEN402", "TEN403")


def slug(repo: str) -> str:
    return "torch" if repo.startswith("pytorch/pytorch") else repo.replace("/", "+")


def main(roots):
    labels = list(csv.DictReader(open(os.path.join(HERE, "labels_issue25.csv"), encoding="utf-8")))
    by_site = {(slug(r["repo"]), r["path"], int(r["line"])): r for r in labels}
    diags = []
    for root in roots:
        for repo in sorted(os.listdir(root)):
            if repo not in {k[0] for k in by_site}:
                continue
            out = subprocess.run([sys.executable, "-m", "flake8_tensorcopy", "check", "--no-cache",
                                  "--exit-zero", "--select", ",".join(CODES), "--output-format",
                                  "json", "."], cwd=os.path.join(root, repo), capture_output=True,
                                 text=True).stdout
            for d in json.loads(out or "[]"):
                loc = d.get("location") or d
                diags.append((d["code"], repo, os.path.normpath(d["filename"]),
                              loc.get("row", loc.get("line"))))
    flagged = Counter()
    for code, repo, path, line in diags:
        site = by_site.get((repo, path, line))
        if site is None:
            print(f"unlabeled: {code} {repo} {path}:{line}")
        flagged[(code, site["expected"] == code if site else None)] += 1
    for code in CODES:
        tp = flagged[(code, True)]
        fp = flagged[(code, False)]
        pos = sum(1 for r in labels if r["expected"] == code)
        prec = f"{tp / (tp + fp):.2f}" if tp + fp else "n/a"
        rec = f"{tp / pos:.2f}" if pos else "n/a"
        print(f"{code}: {tp + fp} diagnostics, {tp} true, {fp} false; {pos} labeled positives; "
              f"precision {prec}, recall {rec}")
    print(f"{len(labels)} labeled sites: " + ", ".join(f"{k}={v}" for k, v in sorted(
        Counter(r['shape'] for r in labels).items())))


if __name__ == "__main__":
    main(sys.argv[1:] or ["/work/corpora"])
