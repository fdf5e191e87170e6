import json, os
H = "/tmp/r27/checkers501"
plan = json.load(open(os.path.join(H, "mutants/mutation_plan.json")))
out = []
def sites(path):
    d = {}
    for r in json.load(open(path))["programs"]:
        for s in r.get("sites", []):
            d[(s["file"], s["line"])] = s
        if r.get("trace_failed") or r.get("rc"):
            out.append("  note: mutant program raised after/while running (site verdicts up to then are used): %s" % r["program"])
    return d
for mode in ("src", "flip"):
    p = os.path.join(H, "mutation_%s.json" % mode)
    if not os.path.exists(p):
        out.append(f"{mode}: not run"); continue
    got = sites(p)
    stats = {}
    surv = []
    ran = {r["program"] for r in json.load(open(p))["programs"]}
    for f, log in plan[mode].items():
        if f.split("/")[0] not in ran:
            continue
        for line, kind, what in log:
            if what not in ("mutated", "flipped"):
                stats[(kind, what)] = stats.get((kind, what), 0) + 1
                continue
            s = got.get((f, line))
            if s is None:
                key = (kind, "missing"); surv.append(f"{f}:{line} {kind} missing")
            elif not s["agree"]:
                key = (kind, "killed")
            else:
                key = (kind, "survived"); surv.append(f"{f}:{line} {kind} {s['verdict']} {s['text'][:90]}")
            stats[key] = stats.get(key, 0) + 1
    out.append(f"== {mode} mutants: " + ", ".join(f"{k[0]} {k[1]}={v}" for k, v in sorted(stats.items())))
    out += ["   survived: " + x for x in surv]
open(os.path.join(H, "mutation_summary.txt"), "w").write("\n".join(out) + "\n")
print("\n".join(out))
