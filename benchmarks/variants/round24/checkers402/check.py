#!/usr/bin/env python
"""Run-time check of every `# expect:` / `# ok` label in the TEN402/TEN403 test set.

For each labelled site the program is rerun with ONLY that site "fixed":
  * the snapshot value (TEN402) / the source of the slice write or copy_ (TEN403)
    is wrapped in _snap(...), a storage-independent deep clone (text substitution
    at the AST node's exact span on that line, in a scratch copy of the tree);
  * the observable stdout is compared with the baseline run.
expect: the fix must change stdout (or remove an overlap RuntimeError / smear).
ok:     the fix must leave stdout identical, and the site must be seen to execute.
TEN403 sites are also probed: a `_probe(dst, src)` call inserted just before the
statement reports whether the two views partially overlap in memory.  An expect
TEN403 site whose CPU result is unchanged (left shifts, undefined behaviour but
benign on CPU) passes only if the probe confirms a partial overlap; an ok TEN403
site must not partially overlap.

usage: python check.py [ROOT] [--out results.txt]
"""
import argparse
import ast
import concurrent.futures as cf
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SITE = os.path.join(HERE, "site")
MARK_RE = re.compile(r"#\s*(expect|either):\s*(TEN40[23])\s*$|#\s*(ok)\s*$")
ANY_MARK_RE = re.compile(r"#\s*(expect:|either:|ok\b)")
SIMPLE = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return, ast.Expr)
FIRST_ARG = {"copy_": 0, "save": 0, "setattr": 2, "heappush": 1, "heappushpop": 1,
             "heapreplace": 1, "insert": 1}


def env():
    e = dict(os.environ)
    e["OMP_NUM_THREADS"] = "1"
    e["MKL_NUM_THREADS"] = "1"
    e["PYTHONPATH"] = SITE
    e["PYTHONHASHSEED"] = "0"
    e["PYTHONDONTWRITEBYTECODE"] = "1"
    return e


def collect(root):
    sites, problems = [], []
    for dp, dns, fns in os.walk(root):
        dns[:] = [d for d in dns if d != "__pycache__"]
        for fn in sorted(fns):
            if not fn.endswith(".py"):
                continue
            path = os.path.join(dp, fn)
            rel = os.path.relpath(path, root)
            rules = set()
            for i, line in enumerate(open(path).read().splitlines(), 1):
                n = len(ANY_MARK_RE.findall(line))
                if n == 0:
                    continue
                m = MARK_RE.search(line)
                if n > 1 or not m:
                    problems.append(f"{rel}:{i}: malformed or multiple markers")
                    continue
                kind = m.group(1) or "ok"
                rule = m.group(2)
                if rule:
                    rules.add(rule)
                sites.append(dict(file=rel, line=i, kind=kind, rule=rule))
            if len(rules) > 1:
                problems.append(f"{rel}: markers for more than one rule {sorted(rules)}")
    # rule of an `ok` site = the rule of its program (file or package)
    by_unit = {}
    for s in sites:
        if s["rule"]:
            by_unit.setdefault(unit_of(s["file"]), set()).add(s["rule"])
    for s in sites:
        if not s["rule"]:
            r = by_unit.get(unit_of(s["file"]), set())
            if not r:
                m = re.search(r"40[23]", unit_of(s["file"]))
                r = {"TEN" + m.group(0)} if m else set()
            if len(r) != 1:
                problems.append(f"{s['file']}:{s['line']}: cannot tell rule of ok site")
            s["rule"] = next(iter(r)) if r else "?"
    return sites, problems


def unit_of(rel):
    parts = rel.split(os.sep)
    return parts[0] if len(parts) > 1 else rel


def runner(root, rel):
    parts = rel.split(os.sep)
    if len(parts) > 1:
        return [sys.executable, "-m", f"{parts[0]}.main"]
    return [sys.executable, rel]


def run_fresh(root, rel, timeout=120):
    """A real `python script.py` / `python -m pkg.main` run (used for baselines)."""
    p = subprocess.run(runner(root, rel), cwd=root, env=env(), capture_output=True,
                       text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


_POOL = queue.Queue()


def start_servers(n):
    for _ in range(n):
        p = subprocess.Popen([sys.executable, os.path.join(HERE, "forkserver.py")], env=env(),
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        _POOL.put(p)


def run(root, rel, timeout=60):
    """Rerun through a fork server that has torch imported already (same result, faster)."""
    argv = runner(root, rel)[1:]
    p = _POOL.get()
    tmp = tempfile.mkdtemp(prefix="chkout_")
    try:
        job = dict(cwd=root, argv=argv, out=os.path.join(tmp, "o"), err=os.path.join(tmp, "e"),
                   timeout=timeout)
        p.stdin.write(json.dumps(job) + "\n")
        p.stdin.flush()
        rc = json.loads(p.stdout.readline())["rc"]
        out, err = open(job["out"]).read(), open(job["err"]).read()
    finally:
        _POOL.put(p)
        shutil.rmtree(tmp, ignore_errors=True)
    return rc, out, err


def stmt_at(tree, line):
    cands = [n for n in ast.walk(tree) if isinstance(n, SIMPLE) and n.lineno == line]
    if not cands:
        raise ValueError("no simple statement starts on this line")
    return cands[0]


def offsets(src):
    starts, pos = [0], 0
    for ln in src.splitlines(keepends=True):
        pos += len(ln)
        starts.append(pos)
    return starts


def target_node(st):
    if isinstance(st, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return)):
        return st.value
    call = st.value
    if not isinstance(call, ast.Call) or not call.args:
        raise ValueError("expression statement is not a call with arguments")
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
    return call.args[FIRST_ARG.get(name, -1)]


def apply_fix(src, line):
    tree = ast.parse(src)
    st = stmt_at(tree, line)
    node = target_node(st)
    st_off = offsets(src)
    a = st_off[node.lineno - 1] + node.col_offset
    b = st_off[node.end_lineno - 1] + node.end_col_offset
    return src[:a] + "_snap((" + src[a:b] + "))" + src[b:]


def probe_pairs(st, src):
    seg = lambda n: ast.get_source_segment(src, n)
    if isinstance(st, ast.Assign):
        return seg(st.targets[0]), seg(st.value)
    call = st.value
    if isinstance(st, ast.Expr) and isinstance(call, ast.Call) and \
            isinstance(call.func, ast.Attribute) and call.func.attr == "copy_":
        return seg(call.func.value), seg(call.args[0])
    return None


def apply_probe(src, line, rule):
    """Insert, just before the statement, _probe(dst, src) (TEN403 slice writes / copy_)
    or _reached() (everything else) so the rerun tells whether the site executes."""
    tree = ast.parse(src)
    st = stmt_at(tree, line)
    pr = probe_pairs(st, src) if rule == "TEN403" else None
    lines = src.splitlines(keepends=True)
    text = lines[line - 1]
    indent = text[: len(text) - len(text.lstrip())]
    if st.col_offset != len(indent):
        return None
    if pr is None:
        lines.insert(line - 1, f"{indent}_reached()\n")
    else:
        d, s = (" ".join(x.split()) for x in pr)
        lines.insert(line - 1, f"{indent}_probe(({d}), ({s}))\n")
    return "".join(lines)


def scratch(root, rel, new_src):
    tmp = tempfile.mkdtemp(prefix="chk402_")
    dst = os.path.join(tmp, "t")
    shutil.copytree(root, dst, ignore=shutil.ignore_patterns("__pycache__"))
    with open(os.path.join(dst, rel), "w") as fh:
        fh.write(new_src)
    return tmp, dst


def check_site(root, s, baseline):
    rel, line = s["file"], s["line"]
    src = open(os.path.join(root, rel)).read()
    main = rel if os.sep not in rel else os.path.join(unit_of(rel), "main.py")
    base = baseline[unit_of(rel)]
    res = dict(s)
    try:
        fixed = apply_fix(src, line)
    except Exception as e:  # noqa: BLE001
        res.update(verdict="FAIL", why=f"cannot apply fix: {e}")
        return res
    tmp, d = scratch(root, rel, fixed)
    try:
        rc, out, err = run(d, main)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    changed = (rc, out) != (base[0], base[1])
    res["changed"] = changed
    if rc != 0:
        res["fixed_rc"] = rc
        res["err_tail"] = err.strip().splitlines()[-1:] if err else []
    probe, reached = "n/a", "?"
    psrc = apply_probe(src, line, s["rule"])
    if psrc is not None:
        tmp, d = scratch(root, rel, psrc)
        try:
            _, _, perr = run(d, main)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        vs = re.findall(r"@@PROBE (\w+)", perr)
        reached = "yes" if vs or "@@REACHED" in perr else "NO"
        if vs:
            probe = "partial" if "partial" in vs else "no-partial"
    res["probe"] = probe
    res["reached"] = reached
    if s["kind"] == "expect":
        if changed:
            ok = True
            why = "fix changes result"
        elif s["rule"] == "TEN403" and probe == "partial":
            ok = True
            why = "result same on CPU, probe confirms partial overlap (UB, e.g. left shift)"
        else:
            ok, why = False, "fix does NOT change result"
    elif s["kind"] == "ok":
        ok = not changed and probe != "partial" and reached == "yes"
        why = "fix leaves result unchanged" if not changed else "fix CHANGES result"
        if probe == "partial":
            why += "; probe finds partial overlap"
        if reached != "yes":
            why += "; site not shown to execute"
    else:
        ok, why = True, "either (not scored): " + ("fix changes result" if changed else "fix leaves result unchanged")
    res.update(verdict="PASS" if ok else "FAIL", why=why)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("root", nargs="?", default="/tmp/r24/ten402_403")
    ap.add_argument("--out", default=os.path.join(HERE, "results.txt"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default=None, help="regex on file path")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    sites, problems = collect(root)
    if a.only:
        sites = [s for s in sites if re.search(a.only, s["file"])]
    units = sorted({unit_of(s["file"]) for s in sites})
    # programs without markers are still baseline-run
    for fn in sorted(os.listdir(root)):
        if re.match(r"t40[23]_.*\.py$", fn) and fn not in units and not a.only:
            units.append(fn)
    baseline = {}
    start_servers(a.jobs)
    mainfile = lambda u: u if u.endswith(".py") else os.path.join(u, "main.py")
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        fresh = {u: ex.submit(run_fresh, root, mainfile(u)) for u in units}
        forked = {u: ex.submit(run, root, mainfile(u)) for u in units}
        for u in units:
            baseline[u] = forked[u].result()
            fr = fresh[u].result()
            if fr[:2] != baseline[u][:2]:
                problems.append(f"{u}: fork-server run differs from a fresh python run")
            if fr[0] != 0:
                problems.append(f"{u}: fresh run exit code {fr[0]}: {fr[2].strip().splitlines()[-1:]}")
            if baseline[u][0] != 0:
                problems.append(f"{u}: baseline exit code {baseline[u][0]}: "
                                f"{baseline[u][2].strip().splitlines()[-1:]}")
            if not baseline[u][1].strip():
                problems.append(f"{u}: baseline prints nothing")
        results = list(ex.map(lambda s: check_site(root, s, baseline), sites))
    lines = []
    npass = sum(r["verdict"] == "PASS" for r in results)
    for r in sorted(results, key=lambda r: (r["file"], r["line"])):
        lab = f"{r['kind']}:{r['rule']}" if r["kind"] != "ok" else f"ok({r['rule']})"
        extra = f" fixed_rc={r['fixed_rc']} {r.get('err_tail')}" if "fixed_rc" in r else ""
        lines.append(f"{r['verdict']}  {r['file']}:{r['line']:<4} {lab:<14} "
                     f"changed={str(r.get('changed')):<5} reached={r.get('reached', '?'):<3} "
                     f"probe={r['probe']:<10} {r['why']}{extra}")
    summ = {}
    for r in results:
        k = (r["kind"], r["rule"])
        summ.setdefault(k, [0, 0])
        summ[k][0] += 1
        summ[k][1] += r["verdict"] == "PASS"
    head = [f"root: {root}", f"programs run (baseline): {len(baseline)}",
            f"sites checked: {len(results)}  PASS: {npass}  FAIL: {len(results) - npass}"]
    head += [f"  {k[0]:<6} {k[1]}: {v[1]}/{v[0]} pass" for k, v in sorted(summ.items())]
    head += [f"PROBLEM {p}" for p in problems] or ["structural problems: none"]
    text = "\n".join(head + [""] + lines) + "\n"
    with open(a.out, "w") as fh:
        fh.write(text)
    print(text)
    return 0 if npass == len(results) and not problems else 1


if __name__ == "__main__":
    sys.exit(main())
