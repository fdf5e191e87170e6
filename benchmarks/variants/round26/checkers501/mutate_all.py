"""Mutation test of the TEN501 checker.

1. code mutations, per program (probe501 --mutate all-fix / all-break):
   * all-fix  : every `# expect` statement gets its stored value(s) wrapped in
                detach(); the checker must now see NO retained graph there
                (i.e. the original label would be reported as FAIL) -> killed.
   * all-break: every `# ok` statement loses .item()/.detach()/.tolist()/
                float()/int()/.cpu()/.numpy(); if a graph is now retained the
                checker reports it -> killed; if nothing changes (e.g. the value
                never had a graph: argmax counts, teacher outputs, no_grad
                blocks) the mutant is equivalent -> reported as 'equivalent'.
2. label flips: a copy of some programs with every expect<->ok marker swapped
   is checked by run_all.py; every flipped site must FAIL.
Writes mutation501.txt / mutation501.json."""
import concurrent.futures as cf
import json, os, re, shutil, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = "/tmp/r26/ten501"
env = dict(os.environ, OMP_NUM_THREADS="1", TEN501_ROOT=ROOT, PYTHONDONTWRITEBYTECODE="1")


def targets():
    ts = sorted(f for f in os.listdir(ROOT) if f.endswith(".py"))
    ts += sorted(d for d in os.listdir(ROOT) if os.path.isfile(os.path.join(ROOT, d, "main.py")))
    return ts


def probe(t, mode):
    jf = os.path.join(HERE, "tmp", f"mut_{mode}_{t}.json")
    os.makedirs(os.path.dirname(jf), exist_ok=True)
    p = subprocess.run([sys.executable, os.path.join(HERE, "probe501.py"), t, "--mutate", "all-" + mode, "--json", jf],
                       env=env, capture_output=True, text=True, timeout=600)
    try:
        return t, mode, json.load(open(jf))
    except Exception:
        return t, mode, {"rc": 99, "error": p.stderr[-1500:], "sites": [], "mutation_status": {"applied": []}}


def main():
    ts = sys.argv[1:] or targets()
    jobs = [(t, m) for t in ts for m in ("fix", "break")]
    with cf.ThreadPoolExecutor(2) as ex:
        res = list(ex.map(lambda a: probe(*a), jobs))
    lines, summary = [], {"fix": {"mutants": 0, "killed": 0, "survived": 0, "crashed_runs": 0},
                          "break": {"mutants": 0, "killed": 0, "equivalent": 0, "crashed_runs": 0},
                          "ok_sites_without_textual_mutation": 0}
    dump = {}
    for t, mode, r in res:
        dump[f"{t}:{mode}"] = r
        applied = set(r.get("mutation_status", {}).get("applied", []) if isinstance(r.get("mutation_status"), dict) else [])
        if r.get("rc") not in (0, None):
            summary[mode]["crashed_runs"] += 1
            lines.append(f"CRASH {mode} {t}: {str(r.get('error'))[-300:]}")
        for s in r.get("sites", []):
            if s["site"] not in applied:
                if mode == "break" and s["label"] == "ok":
                    summary["ok_sites_without_textual_mutation"] += 1
                continue
            summary[mode]["mutants"] += 1
            if mode == "fix":
                k = "killed" if not s["retains"] and s["hits"] >= 3 else "survived"
            else:
                k = "killed" if s["retains"] else "equivalent"
            summary[mode][k] += 1
            lines.append(f"{mode:5s} {k:10s} {s['site']:45s} retains_after={s['retains']} hits={s['hits']} :: {r['mutated_lines'].get(s['site'].rsplit(':', 1)[0], ['?'])[0] if False else s['text']}")
    # mutated source lines, for the record
    mlines = []
    for key, r in dump.items():
        for f, ls in (r.get("mutated_lines") or {}).items():
            for l in ls:
                mlines.append(f"{key} {f}:{l}")
    # label flips
    flip_files = ["basic_running_total.py", "gan_toy.py", "metric_objects.py", "closure_partial.py", "ema_weights.py", "tbptt_lstm.py"]
    ftree = os.path.join(HERE, "flip_tree")
    shutil.rmtree(ftree, ignore_errors=True)
    os.makedirs(ftree)
    flipped = 0
    for f in flip_files:
        src = open(os.path.join(ROOT, f)).read()
        n1 = len(re.findall(r"# expect: TEN501$", src, re.M)) + len(re.findall(r"# ok$", src, re.M))
        src = re.sub(r"# expect: TEN501$", "# __OK__", src, flags=re.M)
        src = re.sub(r"# ok$", "# expect: TEN501", src, flags=re.M)
        src = src.replace("# __OK__", "# ok")
        open(os.path.join(ftree, f), "w").write(src)
        flipped += n1
    p = subprocess.run([sys.executable, os.path.join(HERE, "run_all.py"), "--root", ftree, "--out", os.path.join(HERE, "flip_results501")] + flip_files,
                       capture_output=True, text=True)
    m = re.search(r"FAIL=(\d+)", p.stdout)
    summary["label_flip"] = {"files": flip_files, "flipped_sites": flipped, "checker_FAIL": int(m.group(1)) if m else None}
    head = [json.dumps(summary, indent=1)]
    open(os.path.join(HERE, "mutation501.txt"), "w").write("\n".join(head + [""] + lines + ["", "# mutated source lines"] + mlines) + "\n")
    json.dump({"summary": summary, "runs": dump}, open(os.path.join(HERE, "mutation501.json"), "w"), indent=1)
    print("\n".join(head))
    for l in lines:
        if "survived" in l or "CRASH" in l:
            print(l)


if __name__ == "__main__":
    main()
