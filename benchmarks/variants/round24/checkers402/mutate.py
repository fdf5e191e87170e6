#!/usr/bin/env python
"""Mutation test of check.py: plant deliberately wrong labels in a copy of the test set
and show that check.py flags every one of them (and only them among the touched files)."""
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = "/tmp/r24/ten402_403"
DST = os.path.join(HERE, "mutant_tree")

# (file, text identifying the line, old marker, new marker, why it is wrong)
MUTATIONS = [
    ("t402_best_ckpt_trainer.py", "self.best_state = self.model.state_dict()", "# expect: TEN402", "# ok",
     "live state_dict snapshot relabelled ok"),
    ("t402_best_ckpt_trainer.py", "self.best_opt_state = copy.deepcopy(", "# ok", "# expect: TEN402",
     "deepcopy snapshot relabelled expect"),
    ("t402_ema_swap.py", "self.backup = [p.data for p in model.parameters()]", "# expect: TEN402", "# ok",
     "p.data backup list relabelled ok"),
    ("t402_keep_vars_and_rebind.py", "before = model2.state_dict()", "# ok", "# expect: TEN402",
     "snapshot whose params are re-bound (not mutated) relabelled expect"),
    ("t403_token_shift.py", "x[:, 1:] = x[:, :-1]", "# expect: TEN403", "# ok",
     "smearing right shift relabelled ok"),
    ("t403_stepped_slices.py", "x[1::2] = x[0::2]", "# ok", "# expect: TEN403",
     "disjoint interleaved slices relabelled expect"),
    ("t403_kv_cache.py", "self.k[:, :, :-1] = self.k[:, :, 1:]", "# expect: TEN403", "# ok",
     "left shift (CPU-benign, overlap only visible to the probe) relabelled ok"),
    ("t403_contiguous_trap.py", "m[:, 1:] = m[:, :-1].reshape(m.shape[0], -1)", "# expect: TEN403", "# ok",
     "same-shape reshape (returns a view) relabelled ok -- the author's own first guess"),
    ("t403_contiguous_trap.py", "m[:, 1:] = m[:, :-1].contiguous()", "# ok", "# expect: TEN403",
     "contiguous() of a strided slice (a real copy) relabelled expect"),
]



def main():
    shutil.rmtree(DST, ignore_errors=True)
    shutil.copytree(SRC, DST, ignore=shutil.ignore_patterns("__pycache__"))
    planted = []
    for fn, needle, old, new, why in MUTATIONS:
        p = os.path.join(DST, fn)
        lines = open(p).read().split("\n")
        hits = [i for i, l in enumerate(lines) if needle in l and l.rstrip().endswith(old)]
        assert len(hits) == 1, (fn, needle, hits)
        i = hits[0]
        lines[i] = lines[i].rstrip()[: -len(old)] + new
        open(p, "w").write("\n".join(lines))
        planted.append((fn, i + 1, old, new, why))
    # mixed-rule file
    p = os.path.join(DST, "t403_gae_values.py")
    lines = open(p).read().split("\n")
    i = next(i for i, l in enumerate(lines) if "def gae(" in l)
    lines[i + 1] = lines[i + 1] + "  # expect: TEN402"
    open(p, "w").write("\n".join(lines))
    planted.append(("t403_gae_values.py", i + 2, "", "# expect: TEN402", "TEN402 marker in a TEN403 program"))
    files = sorted({m[0] for m in planted})
    only = "^(" + "|".join(re.escape(f) for f in files) + ")$"
    out = os.path.join(HERE, "mutation_check_raw.txt")
    rc = subprocess.run([sys.executable, os.path.join(HERE, "check.py"), DST, "--out", out, "--only", only],
                        capture_output=True, text=True).returncode
    report = open(out).read()
    lines = ["Mutation test of check.py", f"mutant tree: {DST}", f"check.py exit code on mutant tree: {rc} (1 = failures found)", ""]
    caught = 0
    for fn, ln, old, new, why in planted:
        m = re.search(rf"^(PASS|FAIL)  {re.escape(fn)}:{ln}\s.*$", report, re.M)
        prob = re.search(rf"^PROBLEM {re.escape(fn)}.*$", report, re.M)
        flagged = bool(m and m.group(1) == "FAIL") or (new == "# expect: TEN402" and fn.startswith("t403") and prob)
        caught += flagged
        lines.append(f"{'CAUGHT ' if flagged else 'MISSED '} {fn}:{ln}  '{old or '(none)'}' -> '{new}'  ({why})")
        lines.append("         checker: " + (m.group(0) if m else "") + (("  |  " + prob.group(0)) if prob else ""))
    others = [l for l in report.splitlines() if l.startswith("FAIL") and not any(
        l.startswith(f"FAIL  {fn}:{ln} ") for fn, ln, *_ in planted)]
    lines += ["", f"planted wrong labels: {len(planted)}  caught: {caught}",
              f"unplanted sites flagged in the touched files: {len(others)}"] + others
    lines += ["", "---- raw check.py report on the mutant tree ----", report]
    open(os.path.join(HERE, "mutation_results.txt"), "w").write("\n".join(lines) + "\n")
    print("\n".join(lines[: 6 + 2 * len(planted) + 3]))
    return 0 if caught == len(planted) and not others else 1


if __name__ == "__main__":
    sys.exit(main())
