"""Run-time checker for the TEN402 / TEN403 labeled set.

For every marked line (`# expect: TEN40x`, `# ok`, `# either: TEN40x`) the
checker builds a variant of the program in which ONLY that statement is
"fixed":

  TEN402: the snapshot value stored/returned by the statement is wrapped in
          copy.deepcopy(...) (falling back to .detach().clone() for tensors),
          i.e. the snapshot becomes a real copy.
  TEN403: the source of the slice write / .copy_() is wrapped in a recursive
          .clone(), i.e. source and destination no longer overlap.

The fixed variant is run and its stdout (+ return code) is compared with the
unmodified program.  An `# expect` site must change the observable result (a
different restored/averaged/drift value, or the overlap RuntimeError
disappearing); an `# ok` site must leave it byte-identical.  `# either` sites
are reported but not scored.

Usage: python check.py [--root DIR] [--jobs N] [--only SUBSTR]
"""
import argparse
import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, "runner.py")
MARK = re.compile(r"#\s*(expect|ok|either)(?::\s*(TEN40[0-9]))?\s*$")
ENV = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONHASHSEED="0",
           PYTHONDONTWRITEBYTECODE="1")


def find_programs(root):
    """Return list of (relpath_of_file, run_spec, rule) for every marked file."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for fn in sorted(filenames):
            if not fn.endswith(".py"):
                continue
            full = os.path.join(dirpath, fn)
            rel = os.path.relpath(full, root)
            src = open(full).read()
            marks = []
            for i, line in enumerate(src.splitlines(), 1):
                m = MARK.search(line)
                if m:
                    marks.append((i, m.group(1), m.group(2)))
            if not marks:
                continue
            rules = {r for _, _, r in marks if r}
            if len(rules) > 1:
                raise SystemExit(f"{rel}: markers of more than one rule: {rules}")
            if rules:
                rule = rules.pop()
            else:  # only `# ok` markers: take the rule from the file/package name
                rule = "TEN402" if "402" in rel or "ckpt" in rel else "TEN403"
            pkgdir = os.path.dirname(rel)
            if pkgdir and os.path.exists(os.path.join(root, pkgdir, "__init__.py")):
                spec = ("-m", pkgdir.replace(os.sep, ".") + ".main")
            else:
                spec = ("path", rel)
            out.append((rel, spec, rule, marks))
    return out


def stmt_at(tree, line):
    best = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno == line:
            span = node.end_lineno - node.lineno
            if best is None or span < best[0]:
                best = (span, node)
    return best[1] if best else None


def wrap_targets(stmt, rule):
    if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return)):
        return [stmt.value]
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        fname = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
        if rule == "TEN403":
            if fname == "copy_":
                return [call.args[0]]
            return [call.args[-1]]
        if fname == "save":
            return [call.args[0]]
        if call.args:
            return [call.args[-1]]
        return [kw.value for kw in call.keywords]
    raise ValueError(f"cannot transform statement {type(stmt).__name__}")


def make_fixed_source(src, line, rule):
    tree = ast.parse(src)
    stmt = stmt_at(tree, line)
    if stmt is None:
        raise ValueError(f"no statement starts on line {line}")
    nodes = wrap_targets(stmt, rule)
    lines = src.splitlines(keepends=True)
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln))
    edits = []
    for n in nodes:
        a = starts[n.lineno - 1] + n.col_offset
        b = starts[n.end_lineno - 1] + n.end_col_offset
        edits.append((a, b))
    for a, b in sorted(edits, reverse=True):
        src = src[:a] + "_chk_fix((" + src[a:b] + "))" + src[b:]
    return src


def run(root, spec, rule=None, timeout=120):
    if rule is None:  # plain run, exactly as a user would
        cmd = [sys.executable] + (["-m", spec[1]] if spec[0] == "-m" else [spec[1]])
    else:
        cmd = [sys.executable, RUNNER, rule, spec[0], spec[1]]
    try:
        p = subprocess.run(cmd, cwd=root, env=ENV, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return -999, "", "TIMEOUT"


def run_forked(root, spec, rule, timeout=120):
    """Run the program in a forked child of this (torch-importing) process.

    Same semantics as runner.py, but avoids paying `import torch` per run."""
    import builtins
    import runpy
    import signal
    import time
    import runner_lib
    outf = tempfile.NamedTemporaryFile(delete=False)
    errf = tempfile.NamedTemporaryFile(delete=False)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.chdir(root)
            os.dup2(outf.fileno(), 1)
            os.dup2(errf.fileno(), 2)
            builtins._chk_fix = runner_lib.fix402 if rule == "TEN402" else runner_lib.fix403
            sys.argv = [spec[1]]
            if spec[0] == "-m":
                sys.path.insert(0, root)
                runpy.run_module(spec[1], run_name="__main__", alter_sys=True)
            else:
                sys.path.insert(0, os.path.dirname(os.path.abspath(spec[1])))
                runpy.run_path(spec[1], run_name="__main__")
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except BaseException:
            import traceback
            traceback.print_exc()
            code = 1
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code)
    t0 = time.time()
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.time() - t0 > timeout:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            status = -1
            break
        time.sleep(0.02)
    rc = os.waitstatus_to_exitcode(status) if status != -1 else -999
    out = open(outf.name).read()
    err = open(errf.name).read()
    os.unlink(outf.name)
    os.unlink(errf.name)
    return rc, out, err


def check_site(root, rel, spec, rule, line, base):
    tmp = tempfile.mkdtemp(prefix="chk402_")
    try:
        troot = os.path.join(tmp, "root")
        shutil.copytree(root, troot, ignore=shutil.ignore_patterns("__pycache__", "*.md"))
        path = os.path.join(troot, rel)
        src = open(path).read()
        try:
            fixed = make_fixed_source(src, line, rule)
        except Exception as e:  # noqa
            return ("ERROR", f"transform failed: {e}")
        open(path, "w").write(fixed)
        rc, out, err = run_forked(troot, spec, rule)
        if rc != 0:
            return ("ERROR", f"fixed variant rc={rc}: {err.strip().splitlines()[-1:] }")
        if (rc, out) == base[:2]:
            return ("same", "")
        # describe the difference
        how = "value"
        if "unsupported operation" in base[1] and "unsupported operation" not in out:
            how = "overlap-error"
        bl = base[1].splitlines()
        fl = out.splitlines()
        diff = [(x, y) for x, y in zip(bl, fl) if x != y]
        first = diff[0] if diff else (f"{len(bl)} lines", f"{len(fl)} lines")
        return ("changed", f"{how}: {first[0][:70]!r} -> {first[1][:70]!r}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default="/tmp/r23/ten402_403")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    progs = [p for p in find_programs(root) if args.only in p[0]]
    # group packages: one baseline per run spec
    bases = {}
    specs = sorted({p[1] for p in progs})
    with ThreadPoolExecutor(args.jobs) as ex:
        for spec, res in zip(specs, ex.map(lambda s: run(root, s), specs)):
            bases[spec] = res
    import torch  # noqa: F401  (imported once; each site runs in a fork)
    torch.set_num_threads(1)
    rules = {p[1]: p[2] for p in progs}
    fbases = {}
    for spec in specs:
        fbases[spec] = run_forked(root, spec, rules[spec])
    jobs = []
    for rel, spec, rule, marks in progs:
        for line, kind, _ in marks:
            jobs.append((rel, spec, rule, line, kind))
    results = [check_site(root, j[0], j[1], j[2], j[3], fbases[j[1]]) for j in jobs]

    bad = 0
    print("== baseline runs ==")
    for spec in specs:
        rc = bases[spec][0]
        same = fbases[spec][:2] == bases[spec][:2]
        status = "OK" if rc == 0 and same else "FAIL"
        if status != "OK":
            bad += 1
        print(f"{status} rc={rc} forked-run-identical={same} {' '.join(spec)}" + ("" if rc == 0 else "  " + bases[spec][2].strip()[-300:]))
    print("== sites ==")
    tally = {}
    for (rel, spec, rule, line, kind), (verdict, info) in zip(jobs, results):
        if verdict == "ERROR":
            agree = "DISAGREE"
        elif kind == "expect":
            agree = "agree" if verdict == "changed" else "DISAGREE"
        elif kind == "ok":
            agree = "agree" if verdict == "same" else "DISAGREE"
        else:
            agree = "info"
        if agree == "DISAGREE":
            bad += 1
        key = (rule, kind, agree)
        tally[key] = tally.get(key, 0) + 1
        print(f"{agree:8s} {rel}:{line} [{kind} {rule}] fix->{verdict} {info}")
    print("== summary ==")
    for k in sorted(tally):
        print(f"{k[0]} {k[1]:6s} {k[2]:8s} {tally[k]}")
    print(f"programs={len(specs)} sites={len(jobs)} disagreements/failures={bad}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
