"""Run-time checker for TEN402 labels.

For every program: run it twice unmodified (stdout must be identical and rc 0).  Then, for
each `# expect: TEN402` / `# ok` line, build a copy of the program in which ONLY that
statement is fixed: the snapshot expression it creates/stores is wrapped in _SNAPFIX_(...),
which returns copy.deepcopy(...) (falling back to a recursive .detach().clone()).  The value
wrapped is: the right-hand side of an assignment, the value of a `return`, or for a call
statement the stored argument (last positional argument: .append(x), setattr(o, n, x),
heappush(h, x), d.update(x), t.copy_(x); the first argument of torch.save).
expect -> stdout of the fixed copy differs from the original (and it still exits 0).
ok     -> stdout of the fixed copy is identical.
Usage: python check_ten402.py ROOT [--json OUT]
"""
import os, sys, ast, json, shutil, subprocess, tempfile, collections
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import discover, labels  # noqa: E402

CHILD = r'''
import builtins, copy, os, sys, runpy
import torch
def _fix(o):
    try:
        return copy.deepcopy(o)
    except Exception:
        pass
    if isinstance(o, torch.Tensor):
        return o.detach().clone()
    if isinstance(o, dict):
        return type(o)((k, _fix(v)) for k, v in o.items())
    if isinstance(o, tuple) and hasattr(o, "_fields"):
        return type(o)(*[_fix(v) for v in o])
    if isinstance(o, (list, tuple)):
        return type(o)(_fix(v) for v in o)
    return o
builtins._SNAPFIX_ = _fix
if os.environ.get("T402_MODULE"):
    sys.path.insert(0, os.getcwd())
    runpy.run_module(os.environ["T402_MODULE"], run_name="__main__", alter_sys=True)
else:
    p = os.environ["T402_PATH"]
    sys.argv = [p]
    sys.path.insert(0, os.path.dirname(p))
    runpy.run_path(p, run_name="__main__")
'''


def target_expr(tree, lineno):
    cands = [n for n in ast.walk(tree) if isinstance(n, ast.stmt) and n.lineno == lineno]
    if not cands:
        raise ValueError("no statement at line %d" % lineno)
    st = cands[-1]
    if isinstance(st, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return)):
        return st.value
    if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
        c = st.value
        fname = c.func.attr if isinstance(c.func, ast.Attribute) else getattr(c.func, "id", "")
        if fname == "save":
            return c.args[0]
        if c.args:
            return c.args[-1]
        if c.keywords:
            return c.keywords[-1].value
    raise ValueError("unsupported statement at line %d: %s" % (lineno, type(st).__name__))


def patched_source(src, lineno):
    tree = ast.parse(src)
    e = target_expr(tree, lineno)
    lines = src.splitlines(True)
    if e.lineno != e.end_lineno:
        raise ValueError("multi-line expression at %d" % lineno)
    ln = lines[e.lineno - 1]
    b = ln.encode()
    nb = b[:e.col_offset] + b"_SNAPFIX_(" + b[e.col_offset:e.end_col_offset] + b")" + b[e.end_col_offset:]
    lines[e.lineno - 1] = nb.decode()
    return "".join(lines)


def run(prog, base):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    if prog["kind"] == "pkg":
        env["T402_MODULE"] = prog["module"]
        env["T402_PATH"] = ""
        cwd = base
    else:
        env["T402_MODULE"] = ""
        env["T402_PATH"] = os.path.join(base, prog["name"])
        cwd = base
    r = subprocess.run([sys.executable, "-c", CHILD], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout, r.stderr[-2000:]


def copy_prog(prog, dst):
    if prog["kind"] == "pkg":
        shutil.copytree(prog["path"], os.path.join(dst, os.path.basename(prog["path"])),
                        ignore=shutil.ignore_patterns("__pycache__"))
    else:
        shutil.copy(prog["path"], os.path.join(dst, prog["name"]))


def check_site(prog, f, ln, kind, base_out):
    with tempfile.TemporaryDirectory(dir="/tmp/r26/checkers402/work") as d:
        copy_prog(prog, d)
        rel = os.path.relpath(f, prog["cwd"])
        tf = os.path.join(d, rel)
        try:
            src = patched_source(open(tf).read(), ln)
        except Exception as ex:
            return {"verdict": "ERROR", "why": str(ex)}
        open(tf, "w").write(src)
        rc, out, err = run(prog, d)
    if rc != 0:
        return {"verdict": "ERROR", "why": "fixed copy rc=%d %s" % (rc, err)}
    changed = out != base_out
    if kind == "expect":
        v = "PASS" if changed else "FAIL"
    elif kind == "ok":
        v = "PASS" if not changed else "FAIL"
    else:
        v = "INFO"
    return {"verdict": v, "changed": changed}


def check(root, jobs=2):
    os.makedirs("/tmp/r26/checkers402/work", exist_ok=True)
    results = []
    for prog in discover(root):
        labs = labels(prog["files"], "TEN402")
        rc1, o1, e1 = run(prog, prog["cwd"])
        rc2, o2, _ = run(prog, prog["cwd"])
        pr = {"program": prog["name"], "rc": rc1, "deterministic": o1 == o2 and rc1 == rc2, "sites": [], "stderr": e1 if rc1 else ""}
        with ThreadPoolExecutor(jobs) as ex:
            futs = [(f, ln, kind, ex.submit(check_site, prog, f, ln, kind, o1)) for f, ln, kind in labs]
            for f, ln, kind, fu in futs:
                r = fu.result()
                pr["sites"].append({"file": os.path.relpath(f, root), "line": ln, "label": kind, **r})
        results.append(pr)
    return results


def main():
    root = sys.argv[1]
    out = sys.argv[sys.argv.index("--json") + 1] if "--json" in sys.argv else None
    results = check(root)
    tot = collections.Counter()
    bad_prog = 0
    for pr in results:
        bad = pr["rc"] != 0 or not pr["deterministic"]
        for s in pr["sites"]:
            tot[(s["label"], s["verdict"])] += 1
            if s["verdict"] in ("FAIL", "ERROR"):
                bad = True
            print("%-5s %-6s %-34s line %-4d %s" % (s["verdict"], s["label"], s["file"], s["line"],
                                                   "output changed when fixed" if s.get("changed") else
                                                   ("output unchanged when fixed" if "changed" in s else s.get("why", ""))))
        print("== %s rc=%d deterministic=%s %s" % (pr["program"], pr["rc"], pr["deterministic"], "BAD" if bad else "good"))
        if pr["stderr"]:
            print(pr["stderr"])
        bad_prog += bad
    nfail = sum(v for k, v in tot.items() if k[1] in ("FAIL", "ERROR"))
    print("SUMMARY", " ".join("%s/%s=%d" % (k[0], k[1], v) for k, v in sorted(tot.items())),
          "| failures=%d bad_programs=%d" % (nfail, bad_prog))
    if out:
        json.dump(results, open(out, "w"), indent=1)
    sys.exit(1 if nfail or bad_prog else 0)


if __name__ == "__main__":
    main()
