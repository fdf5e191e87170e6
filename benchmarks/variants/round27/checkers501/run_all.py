"""Run every program under /tmp/r27/ten501 plainly (exit code, time) and under the
run-time tracer (trace501.py); write results.json / results.txt.
usage: python run_all.py [PROGRAM_DIR] [OUT_PREFIX]"""
import json, os, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = sys.argv[1] if len(sys.argv) > 1 else "/tmp/r27/ten501"
PREFIX = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "results")
ENV = dict(os.environ, OMP_NUM_THREADS="1", PYTHONWARNINGS="ignore")

# per-site epoch boundaries for per-iteration buffers that are reset and consumed by
# backward() inside one outer iteration: "file:site text=>boundary line text"
BOUNDARIES = {
    "p10_reinforce_agent.py": ["p10_reinforce_agent.py:self.saved_log_probs.append=>for episode in range"],
    "p30_grad_accum_trainer.py": ["p30_grad_accum_trainer.py:micro_losses.append=>for update_idx in range"],
    "p33_seq2seq_teacher_forcing.py": ["p33_seq2seq_teacher_forcing.py:seq_loss = seq_loss +=>for batch_idx in range"],
    "ppo_lite": ["agent.py:ent_terms.append=>o = env.reset()"],
}

def programs():
    for fn in sorted(os.listdir(ROOT)):
        p = os.path.join(ROOT, fn)
        if os.environ.get("ONLY") and not fn.startswith(tuple(os.environ["ONLY"].split(","))):
            continue
        if fn.endswith(".py"):
            yield fn, ["-f", p], [sys.executable, p], ROOT
        elif os.path.isdir(p) and os.path.exists(os.path.join(p, "main.py")):
            yield fn, ["-m", fn + ".main", "--root", ROOT], [sys.executable, "-m", fn + ".main"], ROOT

def main():
    import concurrent.futures as cf
    with cf.ThreadPoolExecutor(int(os.environ.get("JOBS", "2"))) as ex:
        done = list(ex.map(lambda a: run_one(*a), list(programs())))
    allres = [d[0] for d in done]
    lines = [l for d in done for l in d[1]]
    finish(allres, lines)

def run_one(name, targs, plain, cwd):
    lines = []
    if True:
        t0 = time.time()
        if os.environ.get("NOPLAIN"):
            pr = subprocess.CompletedProcess(plain, 0)
        else:
            pr = subprocess.run(plain, cwd=cwd, env=ENV, capture_output=True, text=True, timeout=120)
        dt = time.time() - t0
        out = os.path.join(HERE, "_tmp_%s.json" % name)
        b = []
        for spec in BOUNDARIES.get(name.replace(".py", "") if not name.endswith(".py") else name, []):
            b += ["--boundary", spec]
        tr = subprocess.run([sys.executable, os.path.join(HERE, "trace501.py"), out] + targs + b,
                            cwd=cwd, env=ENV, capture_output=True, text=True, timeout=300)
        if tr.returncode != 0 or not os.path.exists(out):
            lines.append("%s TRACE-FAILED %s" % (name, tr.stderr[-800:]))
            return dict(program=name, plain_rc=pr.returncode, trace_failed=True), lines
        r = json.load(open(out)); os.remove(out)
        r.update(program=name, plain_rc=pr.returncode, seconds=round(dt, 2))
        bad = [s for s in r["sites"] if not s["agree"]]
        lines.append("%-40s rc=%d %.1fs sites=%d disagree=%d" % (name, pr.returncode, dt, len(r["sites"]), len(bad)))
        for s in r["sites"]:
            lines.append("    %s:%d %-6s -> %-13s execs=%d epochs=%d %s%s" % (
                os.path.basename(s["file"]), s["line"], s["kind"], s["verdict"], s["execs"],
                s["max_epochs"], "" if s["agree"] else "DISAGREE ", s["text"][:70]))
    return r, lines

def finish(allres, lines):
    tot = dict(programs=len(allres), sites=0, agree=0, disagree=0, nonzero_rc=0)
    for r in allres:
        if r.get("trace_failed") or r["plain_rc"] != 0 or r.get("rc", 0) != 0:
            tot["nonzero_rc"] += 1
        for s in r.get("sites", []):
            tot["sites"] += 1
            tot["agree" if s["agree"] else "disagree"] += 1
    lines.append("TOTAL " + json.dumps(tot))
    json.dump(dict(total=tot, programs=allres), open(PREFIX + ".json", "w"), indent=1)
    open(PREFIX + ".txt", "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))

if __name__ == "__main__":
    main()
