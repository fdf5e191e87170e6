#!/usr/bin/env python
"""Second check for the `# expect: TEN501` labels: apply the fix and re-trace.

For every expect line, a copy of the program (or of the whole package) is made
in a temporary directory, and only that one statement is rewritten so that the
value it stores is detached: `_det(v)` (recursive .detach() over tensors,
lists, tuples, namedtuples, dicts, dataclasses) is wrapped around
  * the right-hand side of `x += v` / `x = v`; for `out, state = f(x, state)`
    only the carried element(s) (`_det_at(f(x, state), (1,))`),
  * every argument of the call (`.append(v)`, `heappush(h, v)`, `setattr(o, n, v)`
    -> third argument only, lambda bodies included).
The copy is then traced by check_ten501.py exactly as the original.  The label
is "fix-confirmed" when the mutated program still exits 0 and the line is no
longer KEPT.  When the rewrite breaks the program (e.g. `out, h = model(x, h)`:
detaching `out` removes the graph the loss needs) the result is reported as
n/a; those lines rely on the first check alone.

Usage: python mutate_ten501.py [-j N] [targets...]
"""
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = "/tmp/r22/ten501"
CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_ten501.py")
EXPECT_RE = re.compile(r"#\s*expect:\s*TEN501\s*$")


def wrap(node):
    return ast.Call(func=ast.Name(id="_det", ctx=ast.Load()), args=[node], keywords=[])


def mutate_call(call):
    f = call.func
    if isinstance(f, ast.Name) and f.id == "setattr" and len(call.args) == 3:
        call.args[2] = wrap(call.args[2])
        return
    call.args = [wrap(a) if not isinstance(a, ast.Starred) else ast.Starred(wrap(a.value), ast.Load())
                 for a in call.args]
    for k in call.keywords:
        k.value = wrap(k.value)


def mutate_line(src, lineno):
    tree = ast.parse(src)
    lines = src.splitlines()
    target = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno == lineno and not isinstance(
                node, (ast.For, ast.While, ast.If, ast.With, ast.FunctionDef, ast.ClassDef, ast.Try)):
            target = node
    if target is None:
        return None
    lam = next((n for n in ast.walk(target) if isinstance(n, ast.Lambda) and n.lineno == lineno), None)
    if lam is not None and isinstance(lam.body, ast.Call):
        mutate_call(lam.body)
    elif (isinstance(target, ast.Assign) and isinstance(target.targets[0], ast.Tuple)
          and isinstance(target.value, ast.Call)):
        # `out, state = f(x, state)`: detach only the carried state, i.e. the
        # tuple elements that are fed back in as call arguments
        arg_names = {a.id for a in target.value.args if isinstance(a, ast.Name)}
        idx = [i for i, e in enumerate(target.targets[0].elts)
               if isinstance(e, ast.Name) and e.id in arg_names]
        if idx:
            target.value = ast.Call(func=ast.Name(id="_det_at", ctx=ast.Load()),
                                    args=[target.value, ast.Tuple([ast.Constant(i) for i in idx], ast.Load())],
                                    keywords=[])
        else:
            target.value = wrap(target.value)
    elif isinstance(target, (ast.AugAssign, ast.Assign, ast.AnnAssign)):
        target.value = wrap(target.value)
    elif isinstance(target, ast.Expr) and isinstance(target.value, ast.Call):
        mutate_call(target.value)
    else:
        return None
    ast.fix_missing_locations(target)
    line = lines[lineno - 1]
    indent = line[:len(line) - len(line.lstrip())]
    lines[lineno - 1] = indent + ast.unparse(target) + "  # expect: TEN501"
    return "\n".join(lines) + "\n"


def expect_lines(target):
    files = ([os.path.join(target, f) for f in sorted(os.listdir(target)) if f.endswith(".py")]
             if os.path.isdir(target) else [target])
    for f in files:
        for i, l in enumerate(open(f).read().splitlines(), 1):
            if EXPECT_RE.search(l):
                yield f, i


def run_one(target, path, lineno):
    rel_target = os.path.relpath(target, ROOT)
    rel_path = os.path.relpath(path, ROOT)
    with tempfile.TemporaryDirectory(prefix="ten501mut_") as tmp:
        if os.path.isdir(target):
            shutil.copytree(target, os.path.join(tmp, rel_target))
        else:
            shutil.copy(target, os.path.join(tmp, rel_target))
        new = mutate_line(open(path).read(), lineno)
        if new is None:
            return rel_path, lineno, "n/a (no rewrite)", ""
        with open(os.path.join(tmp, rel_path), "w") as fh:
            fh.write(new)
        env = dict(os.environ, TEN501_ROOT=tmp, TEN501_DET="1")
        p = subprocess.run([sys.executable, CHECKER, "--child", os.path.join(tmp, rel_target)],
                           capture_output=True, text=True, env=env, timeout=900)
        try:
            rep = json.loads(p.stdout.strip().splitlines()[-1])
        except Exception:
            return rel_path, lineno, "n/a (checker crashed)", p.stderr[-300:]
        mutated_text = new.splitlines()[lineno - 1].strip()
        if rep["rc"] != 0:
            return rel_path, lineno, "n/a (program fails after rewrite)", (rep["error"] or "")[:120] + " | " + mutated_text
        r = next(r for r in rep["results"] if r["file"] == rel_path and r["line"] == lineno)
        if r["hits"] == 0:
            return rel_path, lineno, "n/a (not hit)", mutated_text
        return rel_path, lineno, ("fix-confirmed" if not r["kept"] else "STILL-KEPT"), mutated_text


def main(argv):
    jobs = 2
    if "-j" in argv:
        jobs = int(argv[argv.index("-j") + 1])
        del argv[argv.index("-j"):argv.index("-j") + 2]
    targets = [os.path.join(ROOT, a) for a in argv] or sorted(
        os.path.join(ROOT, f) for f in os.listdir(ROOT)
        if (f.startswith("t") and f.endswith(".py")) or f.startswith("pkg_"))
    work = [(t, f, i) for t in targets for f, i in expect_lines(t)]
    with ThreadPoolExecutor(jobs) as ex:
        results = list(ex.map(lambda w: run_one(*w), work))
    counts = {}
    for rel, ln, status, info in results:
        counts[status.split(" ")[0]] = counts.get(status.split(" ")[0], 0) + 1
        print("%-34s %4d %-36s %s" % (rel, ln, status, info))
    print()
    print("expect lines: %d  " % len(results) + "  ".join("%s=%d" % kv for kv in sorted(counts.items())))
    return 1 if counts.get("STILL-KEPT") else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
