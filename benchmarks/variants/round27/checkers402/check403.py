"""Run-time checker for TEN403 labels (see runner403.py for the instrumentation).

expect  => at least one recorded write at that statement has a hazardous overlap
           (destination/source element sets share storage and the mapping is
           not the identity).  Whether the value also differs from the
           clone()-first result is reported (differs=...).
ok      => the statement was executed, recorded >= 1 write, and no write had a
           hazardous overlap nor a result that differs from clone()-first.
either  => recorded only.
Also reports hazardous writes on UNLABELED lines (warnings).
Also checks: the plain (uninstrumented) program exits 0 and prints the same.
usage: python check403.py SETDIR [RESULTS.json]
"""
import ast, json, os, subprocess, sys, tempfile
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import markers, stmt_at, program_units

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, "runner403.py")


def run_unit(unit, setdir):
    name, files, spec = unit
    fd, out = tempfile.mkstemp(suffix=".json", dir=os.path.join(HERE, "tmp"))
    os.close(fd)
    watch = os.path.abspath(os.path.dirname(files[0]))
    env = dict(os.environ, OMP_NUM_THREADS="1", OUT=out, WATCH_DIR=watch)
    if spec[0] == "path":
        cmd = [sys.executable, RUNNER, spec[1]]
        plain = [sys.executable, spec[1]]
        cwd = os.path.dirname(spec[1])
    else:
        cmd = [sys.executable, RUNNER, "-m", spec[1], spec[2]]
        plain = [sys.executable, "-m", spec[2]]
        cwd = spec[1]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120, cwd=cwd)
    q = subprocess.run(plain, capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"),
                       timeout=120, cwd=cwd)
    events = json.load(open(out)) if os.path.getsize(out) else []
    os.remove(out)
    res = {"unit": name, "rc": p.returncode, "plain_rc": q.returncode,
           "same_stdout": p.stdout == q.stdout, "sites": [], "unlabeled_hazards": []}
    if p.returncode != 0 or q.returncode != 0:
        res["error"] = (p.stderr + q.stderr)[-1500:]
        return res
    by_line = defaultdict(list)
    for e in events:
        by_line[(e["file"], e["line"])].append(e)
    claimed = set()
    for f in files:
        tree = ast.parse(open(f).read())
        for ln, kind in markers(f):
            st = stmt_at(tree, ln)
            rng = range(ln, (st.end_lineno if st else ln) + 1)
            evs = [e for l in rng for e in by_line.get((os.path.abspath(f), l), [])]
            claimed.update((os.path.abspath(f), l) for l in rng)
            nh = sum(e["hazard"] for e in evs)
            nd = sum(bool(e["differs"]) for e in evs)
            site = dict(file=os.path.relpath(f, setdir), line=ln, label=kind, writes=len(evs),
                        hazardous=nh, differs=nd,
                        why=sorted(set(e["why"] for e in evs)))
            if kind == "expect":
                site["verdict"] = "PASS" if nh > 0 else "FAIL"
            elif kind == "ok":
                site["verdict"] = "PASS" if evs and nh == 0 and nd == 0 else "FAIL"
            else:
                site["verdict"] = "INFO"
            res["sites"].append(site)
    for (fn, l), evs in sorted(by_line.items()):
        if (fn, l) not in claimed and any(e["hazard"] for e in evs):
            res["unlabeled_hazards"].append("%s:%d" % (os.path.relpath(fn, setdir), l))
    return res


def main():
    setdir = os.path.abspath(sys.argv[1])
    out = sys.argv[2] if len(sys.argv) > 2 else None
    os.makedirs(os.path.join(HERE, "tmp"), exist_ok=True)
    units = program_units(setdir)
    only = os.environ.get("ONLY")
    if only:
        units = [u for u in units if u[0] in only.split(",")]
    with ThreadPoolExecutor(int(os.environ.get("JOBS", "2"))) as ex:
        results = list(ex.map(lambda u: run_unit(u, setdir), units))
    c = defaultdict(int)
    for r in results:
        if r.get("error"):
            print("ERROR", r["unit"], r["error"])
            c["FAIL"] += 1
        if not r["same_stdout"]:
            print("WARN instrumented stdout differs from plain run:", r["unit"])
        for h in r["unlabeled_hazards"]:
            print("WARN unlabeled hazardous write", h)
            c["unlabeled"] += 1
        for s in r["sites"]:
            c[s["verdict"]] += 1
            print("%-4s %-40s %4d %-6s writes=%d hazardous=%d differs=%d %s" % (
                s["verdict"], s["file"], s["line"], s["label"], s["writes"], s["hazardous"],
                s["differs"], ",".join(s["why"])))
    print("TOTAL pass=%d fail=%d either_info=%d unlabeled_hazards=%d" % (
        c["PASS"], c["FAIL"], c["INFO"], c["unlabeled"]))
    if out:
        json.dump(results, open(out, "w"), indent=1)
    return 1 if c["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
