"""Checker: proves every # expect / # ok label of the TEN402/TEN403 set at run time.
usage: python check.py [ROOT] [RESULTS_BASENAME]
"""
import os, sys, json, shutil, tempfile, glob, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as H

ROOT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "/tmp/r25/ten402_403"
OUTBASE = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
PAR = int(os.environ.get("R25_PAR", "2"))


_UNITS = None


def units():
    global _UNITS
    if _UNITS is not None:
        return _UNITS
    us = []
    for f in sorted(glob.glob(os.path.join(ROOT, "s40[23]_*.py"))):
        rel = os.path.basename(f)
        us.append({"name": rel, "files": [rel], "target": rel})
    for p in ("pkg402", "pkg403"):
        d = os.path.join(ROOT, p)
        if os.path.isdir(d):
            fs = sorted(os.path.relpath(x, ROOT) for x in glob.glob(os.path.join(d, "*.py")))
            us.append({"name": p, "files": fs, "target": f"-m {p}.main"})
    _UNITS = us
    return us


def main():
    scratch = tempfile.mkdtemp(prefix="r25chk_")
    sites = []   # dicts
    jobs = []    # (unit, workdir, mode, fix_id)
    sid = 0
    errors = []
    for u in units():
        rule = H.rule_of(u["files"][0])
        u["rule"] = rule
        base = os.path.join(scratch, u["name"].replace(".py", ""))
        orig, inst = os.path.join(base, "orig"), os.path.join(base, "inst")
        for f in u["files"]:
            for d in (orig, inst):
                os.makedirs(os.path.dirname(os.path.join(d, f)), exist_ok=True)
                shutil.copy(os.path.join(ROOT, f), os.path.join(d, f))
            ms = H.find_markers(os.path.join(ROOT, f))
            fsites = []
            for (ln, kind, code) in ms:
                if kind != "ok" and code != rule:
                    errors.append(f"{f}:{ln}: marker for {code} in a {rule} program")
                sid += 1
                s = {"id": sid, "file": f, "line": ln, "label": kind, "rule": rule, "unit": u["name"]}
                sites.append(s)
                fsites.append((ln, sid))
            try:
                txt = H.instrument(open(os.path.join(ROOT, f)).read(), fsites, rule)
                open(os.path.join(inst, f), "w").write(txt)
            except Exception as e:
                errors.append(f"{f}: instrument failed: {e}")
        u["orig"], u["inst"] = orig, inst
        jobs.append((u, orig, "base", 0)); jobs.append((u, orig, "base2", 0)); jobs.append((u, inst, "probe", 0))
        for s in sites:
            if s["unit"] == u["name"]:
                jobs.append((u, inst, "fix", s["id"]))
    # run
    results = {}
    pending = list(jobs); running = []
    t0 = time.time()
    while pending or running:
        while pending and len(running) < PAR:
            u, wd, mode, fid = pending.pop(0)
            pid, out, log = H.run_job(wd, u["target"], mode if mode != "base2" else "base2", fid)
            running.append((pid, u, mode, fid, out, log))
        for r in list(running):
            pid, u, mode, fid, out, log = r
            p, st = os.waitpid(pid, os.WNOHANG)
            if p:
                rc = os.waitstatus_to_exitcode(st)
                txt = open(out).read() if os.path.exists(out) else ""
                if rc != 0 and os.path.exists(out + ".err"):
                    txt += "\n[stderr]\n" + open(out + ".err").read()
                rec = json.load(open(log)) if os.path.exists(log) else {}
                results[(u["name"], mode, fid)] = (rc, txt, rec)
                running.remove(r)
        time.sleep(0.01)
    # verdicts
    lines = []; nfail = 0; summary = {}
    for u in units():
        b = results[(u["name"], "base", 0)]; b2 = results[(u["name"], "base2", 0)]; pr = results[(u["name"], "probe", 0)]
        if b[0] != 0:
            errors.append(f"{u['name']}: baseline rc={b[0]}\n{b[1][-800:]}")
        if b[1] != b2[1]:
            errors.append(f"{u['name']}: baseline not deterministic")
        if pr[1] != b[1] or pr[0] != 0:
            errors.append(f"{u['name']}: instrumented probe run output differs from baseline (rc={pr[0]})\n{pr[1][-800:]}")
    for s in sites:
        u = s["unit"]
        b = results[(u, "base", 0)]; pr = results[(u, "probe", 0)]; fx = results[(u, "fix", s["id"])]
        rec = pr[2].get(str(s["id"]), {"n": 0})
        ran = rec.get("n", 0)
        changed = (fx[1] != b[1]) or fx[0] != b[0]
        if s["rule"] == "TEN402":
            alias = rec.get("alias", [])
            info = f"ran={ran} aliases_live={any(a for a in alias if a)} fix_changes_output={changed}"
            if s["label"] == "expect":
                ok = ran > 0 and changed
            elif s["label"] == "ok":
                ok = ran > 0 and not changed
            else:
                ok = None
        else:
            obs = rec.get("obs", [])
            part = [o for o in obs if o.startswith("partial")]
            kinds = sorted(set(o.split(":")[0] for o in obs))
            info = f"ran={ran} overlap={kinds} {part[0] if part else ''} clone_fix_changes_output={changed}"
            if s["label"] == "expect":
                ok = ran > 0 and bool(part)
            elif s["label"] == "ok":
                ok = ran > 0 and not part and "same-region" not in kinds and not changed
            else:
                ok = None
        verdict = "PASS" if ok else ("INFO" if ok is None else "FAIL")
        if ok is False:
            nfail += 1
        key = (s["rule"], s["label"], verdict)
        summary[key] = summary.get(key, 0) + 1
        lines.append(f"{verdict:4s} {s['rule']} {s['label']:6s} {s['file']}:{s['line']}  {info}")
    with open(OUTBASE + ".txt", "w") as f:
        f.write(f"root={ROOT}  units={len(units())} sites={len(sites)}  time={time.time()-t0:.0f}s\n")
        for e in errors:
            f.write("ERROR " + e + "\n")
        for l in lines:
            f.write(l + "\n")
        f.write("\nSUMMARY\n")
        for k in sorted(summary):
            f.write(f"  {k[0]} {k[1]:6s} {k[2]}: {summary[k]}\n")
        f.write(f"  FAIL={nfail} ERRORS={len(errors)}\n")
    print(open(OUTBASE + ".txt").read()[-1500:] if "-q" not in sys.argv else "")
    print(f"FAIL={nfail} ERRORS={len(errors)}")
    shutil.rmtree(scratch, ignore_errors=True)
    sys.exit(1 if (nfail or errors) else 0)


if __name__ == "__main__":
    main()
