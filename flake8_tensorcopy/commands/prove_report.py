"""The report of ``tensorcopy fix --prove`` (``prove``), in text or JSON (``--output-format``)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Dict, List

from ..diagnostics import SAFE
from ..formats.common import rel, valid_json

#: the changed tests listed per rejected fix in the text report (JSON lists all)
SHOWN = 3


@dataclass(frozen=True)
class Change:
    """One thing CMD's outcome showed differently from the baseline: a test's outcome (or
    "exit status", "stdout sha256", "pytest session"), before and after."""
    test: str
    before: str
    after: str

    def __str__(self) -> str:
        return f"{self.test}: {self.before} -> {self.after}"


def _fix(c) -> Dict:
    d = c.diag
    return {"path": rel(c.path), "line": d.line, "column": d.column + 1, "code": d.code,
            "message": d.message, "safety": "safe" if d.fix.safety == SAFE else "unsafe"}


def facts(prover, wall: float) -> Dict:
    """What the report says, as the JSON object it prints."""
    cands = prover.cands
    base = prover.baseline
    proven = sorted(prover.kept & prover.exercised)
    return {
        "command": prover.cmd,
        "candidates": len(cands),
        "runs": prover.runs,
        "wall_time_s": round(wall, 3),
        "run_times": [{"run": label, "seconds": round(t, 3)} for label, t in prover.timings],
        "baseline": None if base is None else {
            "kind": base.kind, "tests": len(base.tests), "exit_status": base.status,
            "flaky": prover.flaky},
        "proven": [_fix(cands[i]) for i in proven],
        "rejected": [dict(_fix(cands[i]), changed=[
            {"test": ch.test, "before": ch.before, "after": ch.after} for ch in changes])
            for i, changes in sorted(prover.rejected.items())],
        "not_exercised": [_fix(cands[i]) for i in prover.unexercised],
        "not_exercised_applied": bool(prover.keep_unexercised and prover.unexercised),
        "applied": len(prover.final),
    }


def report(args, prover, wall: float) -> str:
    data = facts(prover, wall)
    if args.output_format == "json":
        return json.dumps(valid_json(data), indent=2) + "\n"
    out: List[str] = []

    def line(f: Dict) -> str:
        return (f"  {f['path']}:{f['line']}:{f['column']}: {f['code']} {f['message']}"
                + ("" if f["safety"] == "safe" else " [unsafe fix]"))

    if not data["candidates"]:
        return "No fixes to prove: CMD was not run.\n"
    base = data["baseline"]
    out.append(f"Proved fixes on `{data['command']}`: {data['candidates']} candidate(s), "
               f"{data['runs']} run(s), {data['wall_time_s']:.1f} s; baseline: "
               + (f"{base['tests']} test(s)" if base["kind"] == "pytest"
                  else f"exit status {base['exit_status']} and standard output") + ".")
    if base["flaky"]:
        out.append(f"Flaky (outcome differs between two unchanged runs; not compared): "
                   f"{len(base['flaky'])}")
        out.extend(f"  {name}" for name in base["flaky"])
    out.append(f"Proven (applied; CMD ran the fixed line, outcomes unchanged): "
               f"{len(data['proven'])}")
    out.extend(line(f) for f in data["proven"])
    out.append(f"Rejected (reverted; they changed CMD's outcome): {len(data['rejected'])}")
    for f in data["rejected"]:
        out.append(line(f))
        for ch in f["changed"][:SHOWN]:
            out.append(f"      {ch['test']}: {ch['before']} -> {ch['after']}")
        if len(f["changed"]) > SHOWN:
            out.append(f"      ... and {len(f['changed']) - SHOWN} more")
    kept = data["not_exercised_applied"]
    out.append("Not exercised (CMD never ran the fixed line; "
               + ("applied, --keep-unexercised" if kept else
                  "left out, --keep-unexercised applies them") + f"): "
               f"{len(data['not_exercised'])}")
    out.extend(line(f) for f in data["not_exercised"])
    return "\n".join(out) + "\n"
