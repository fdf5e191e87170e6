"""What the scorers of labeled sites share (the bug zoo's ``zoo/score.py``, issue 44's
``precision/score_issue44.py``): the linter's diagnostics in one tree, and the table of recall
and precision per rule."""
from __future__ import annotations

import json
import subprocess
import sys
from typing import Dict, Iterable, List


def diagnostics(tree: str, codes: Iterable[str]) -> List[dict]:
    """``check --output-format json --select CODES --no-cache .`` run in ``tree`` with whatever
    flake8_tensorcopy the interpreter imports: the diagnostics as JSON objects."""
    cmd = [sys.executable, "-m", "flake8_tensorcopy", "check", "--output-format", "json",
           "--select", ",".join(codes), "--no-cache", "."]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tree)
    try:
        data = json.loads(proc.stdout or "[]")
    except ValueError:
        raise SystemExit(f"{tree}: check gave no JSON: {proc.stderr[-400:]}")
    if isinstance(data, dict):
        data = data.get("diagnostics", [])
    return data


def rule_table(codes: Iterable[str], positives: Dict[str, int], found: Dict[str, int],
               false: Dict[str, int], positives_title: str) -> List[str]:
    """The markdown table, one row per rule: labeled positives (``positives_title``), how many
    of them were reported, recall, false alarms, precision ("-" where a ratio has no
    denominator)."""
    out = [f"| rule | {positives_title} | found | recall | false alarms | precision |",
           "| --- | --- | --- | --- | --- | --- |"]
    for c in codes:
        reported = found[c] + false[c]
        recall = f"{found[c] / positives[c]:.2f}" if positives[c] else "-"
        precision = f"{found[c] / reported:.2f}" if reported else "-"
        out.append(f"| {c} | {positives[c]} | {found[c]} | {recall} | {false[c]} | {precision} |")
    return out
