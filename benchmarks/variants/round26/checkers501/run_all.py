"""Run every program plainly (exit code, time) and under probe501; compare labels.

python run_all.py [--root DIR] [--out PREFIX] [targets...]
Writes PREFIX.json (all site records) and PREFIX.txt (summary)."""
import concurrent.futures as cf
import json, os, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
args = sys.argv[1:]
root = "/tmp/r26/ten501"
out = os.path.join(HERE, "results501")
if "--root" in args:
    i = args.index("--root"); root = args[i + 1]; del args[i:i + 2]
if "--out" in args:
    i = args.index("--out"); out = args[i + 1]; del args[i:i + 2]
env = dict(os.environ, OMP_NUM_THREADS="1", TEN501_ROOT=root, PYTHONDONTWRITEBYTECODE="1")


def targets():
    ts = sorted(f for f in os.listdir(root) if f.endswith(".py"))
    ts += sorted(d for d in os.listdir(root) if os.path.isfile(os.path.join(root, d, "main.py")))
    return ts


def run_one(t):
    cmd = [sys.executable, t] if t.endswith(".py") else [sys.executable, "-m", t + ".main"]
    t0 = time.time()
    p = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=300)
    plain = {"rc": p.returncode, "secs": round(time.time() - t0, 2), "stdout_tail": p.stdout.strip().splitlines()[-1:] }
    jf = os.path.join(HERE, "tmp", t.replace("/", "_") + ".json")
    os.makedirs(os.path.dirname(jf), exist_ok=True)
    q = subprocess.run([sys.executable, os.path.join(HERE, "probe501.py"), t, "--json", jf], env=env, capture_output=True, text=True, timeout=600)
    try:
        res = json.load(open(jf))
    except Exception:
        res = {"rc": 99, "error": q.stderr[-2000:], "sites": []}
    res["plain"] = plain
    res["probe_stderr_warnings"] = [l for l in q.stderr.splitlines() if "[probe501]" in l]
    return t, res


def verdict(s):
    if s["errors"]:
        return "ERROR"
    if s["hits"] < 3:
        return "UNDER-EXERCISED"
    if s["label"] == "either":
        return "INFO"
    want = s["label"] == "expect"
    return "PASS" if s["retains"] == want else "FAIL"


def main():
    ts = args or targets()
    with cf.ThreadPoolExecutor(2) as ex:
        results = dict(ex.map(run_one, ts))
    if args and os.path.exists(out + ".json") and "--no-merge" not in sys.argv and not out.endswith("flip_results501"):
        old = json.load(open(out + ".json"))  # re-checking some targets: merge into the full record
        old.update(results)
        results = old
        ts = sorted(results, key=lambda t: (not t.endswith(".py"), t))
    lines = []
    counts = {"PASS": 0, "FAIL": 0, "ERROR": 0, "UNDER-EXERCISED": 0, "INFO": 0}
    bad_programs = []
    for t in ts:
        r = results[t]
        if r["plain"]["rc"] != 0 or r.get("rc") != 0:
            bad_programs.append(t)
        for w in r.get("probe_stderr_warnings", []):
            lines.append(f"WARN {t}: {w}")
        for s in r["sites"]:
            v = verdict(s)
            s["verdict"] = v
            counts[v] += 1
            lines.append(f"{v:5s} {s['site']:45s} label={s['label']:6s} retains={str(s['retains']):5s} iters={s['max_iters_reached']:3d} hits={s['hits']:3d} nodes={s['max_nodes']:5d} keeper={','.join(s['keeper'])} boundary={s['boundary']}" + (f" errors={s['errors']}" if s['errors'] else ""))
    head = [f"programs: {len(ts)}  program failures (plain or probe rc!=0): {bad_programs}",
            f"max plain runtime: {max(r['plain']['secs'] for r in results.values())} s",
            "site verdicts: " + ", ".join(f"{k}={v}" for k, v in counts.items())]
    txt = "\n".join(head + [""] + lines) + "\n"
    open(out + ".txt", "w").write(txt)
    json.dump(results, open(out + ".json", "w"), indent=1)
    print("\n".join(head))
    for l in lines:
        if not l.startswith("PASS") and not l.startswith("INFO"):
            print(l)


if __name__ == "__main__":
    main()
