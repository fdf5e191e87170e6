"""Empirical label checker (not part of the test set proper).

Usage:  python _verify/verify.py t01_foo.py        (single file)
        python _verify/verify.py -m pkg_a.main      (package)

For every line carrying a marker it records, each time the line runs, whether
the value handed to the keeper holds an autograd graph (grad_fn or
requires_grad).  For `X.append(..)` / `X.extend(..)` / assignments the check is
done after the statement ran (on the stored object); for other calls it is done
on the call's arguments before the call.
"""
import ast
import dataclasses
import os
import re
import runpy
import sys
from collections import defaultdict, deque

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARK = re.compile(r"#\s*(expect: TEN501|ok|either)\b")


def marks_of(path):
    src = open(path).read()
    tree = ast.parse(src)
    marks = {}
    for i, line in enumerate(src.splitlines(), 1):
        m = MARK.search(line)
        if m:
            marks[i] = m.group(1).split(":")[0]
    stmts = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno in marks:
            # outermost statement starting on that line
            if node.lineno not in stmts:
                stmts[node.lineno] = node
    plans = {}
    for ln, kind in marks.items():
        st = stmts.get(ln)
        pre, post = [], []
        if st is None:
            plans[ln] = (kind, [], [], "NO-STMT")
            continue
        if isinstance(st, (ast.Assign,)):
            post = [ast.unparse(t) for t in st.targets]
        elif isinstance(st, (ast.AugAssign, ast.AnnAssign)):
            post = [ast.unparse(st.target)]
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
            c = st.value
            if isinstance(c.func, ast.Attribute) and c.func.attr in ("append", "appendleft"):
                post = [ast.unparse(c.func.value) + "[-1]"]
            elif isinstance(c.func, ast.Attribute) and c.func.attr in ("extend",):
                post = [ast.unparse(c.func.value)]
            else:
                # a first positional arg that is a plain name of a container (the keeper
                # itself, e.g. record(store, ...)) are skipped at check time
                pre = [("SKIPCONT", ast.unparse(a)) if i == 0 and isinstance(a, (ast.Name, ast.Attribute)) else ast.unparse(a) for i, a in enumerate(c.args)]
                pre += [ast.unparse(k.value) for k in c.keywords]
        elif isinstance(st, ast.Return) and st.value is not None:
            pre = [ast.unparse(st.value)]
        else:
            plans[ln] = (kind, [], [], "UNHANDLED " + type(st).__name__)
            continue
        plans[ln] = (kind, [(compile(e[1], "<pre>", "eval"), True) if isinstance(e, tuple) else (compile(e, "<pre>", "eval"), False) for e in pre],
                     [(compile(e, "<post>", "eval"), False) for e in post], "")
    return plans


def has_graph(obj, depth=0, seen=None):
    if seen is None:
        seen = set()
    if id(obj) in seen or depth > 4:
        return False
    seen.add(id(obj))
    if isinstance(obj, torch.Tensor):
        return obj.requires_grad or obj.grad_fn is not None
    if isinstance(obj, (list, tuple, deque, set)):
        return any(has_graph(o, depth + 1, seen) for o in obj)
    if isinstance(obj, dict):
        return any(has_graph(o, depth + 1, seen) for o in obj.values())
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return any(has_graph(getattr(obj, f.name), depth + 1, seen) for f in dataclasses.fields(obj))
    if isinstance(obj, torch.nn.Module):
        return False
    d = getattr(obj, "__dict__", None)
    if isinstance(d, dict) and not isinstance(obj, type) and depth < 3:
        return any(has_graph(o, depth + 1, seen) for o in d.values())
    return False


PLANS = {}
STATS = defaultdict(lambda: [0, 0, 0])  # (file, line) -> [hits, graph_hits, errors]
PENDING = {}


def check(frame, codes, key):
    g = False
    for c, skipcont in codes:
        try:
            v = eval(c, frame.f_globals, frame.f_locals)
            if skipcont and isinstance(v, (list, dict, deque)):
                continue
            g = g or has_graph(v)
        except Exception:
            STATS[key][2] += 1
    return g


def local_trace(frame, event, arg):
    fn = frame.f_code.co_filename
    plans = PLANS[fn]
    fid = id(frame)
    if event in ("line", "return") and fid in PENDING:
        key, post = PENDING.pop(fid)
        if check(frame, post, key):
            STATS[key][1] += 1
    if event == "line" and frame.f_lineno in plans:
        kind, pre, post, note = plans[frame.f_lineno]
        key = (fn, frame.f_lineno)
        STATS[key][0] += 1
        if pre and check(frame, pre, key):
            STATS[key][1] += 1
        if post:
            PENDING[fid] = (key, post)
    return local_trace


def global_trace(frame, event, arg):
    fn = frame.f_code.co_filename
    if fn in PLANS:
        return local_trace
    if fn.startswith(ROOT) and fn.endswith(".py") and "_verify" not in fn:
        PLANS[fn] = marks_of(fn)
        return local_trace
    return None


def main():
    os.chdir(ROOT)
    sys.path.insert(0, ROOT)
    args = sys.argv[1:]
    sys.settrace(global_trace)
    try:
        if args[0] == "-m":
            sys.argv = [args[1]]
            runpy.run_module(args[1], run_name="__main__", alter_sys=True)
        else:
            p = os.path.join(ROOT, args[0])
            sys.argv = [p]
            runpy.run_path(p, run_name="__main__")
    finally:
        sys.settrace(None)
    sys.stdout.flush()
    bad = 0
    for fn, plans in sorted(PLANS.items()):
        for ln, (kind, pre, post, note) in sorted(plans.items()):
            hits, gh, err = STATS[(fn, ln)]
            verdict = "OK"
            if kind == "expect" and (gh < 2):
                verdict = "MISMATCH"
            if kind == "ok" and gh > 0:
                verdict = "GRAPH-ON-OK"
            if hits == 0 or note or err:
                verdict = "CHECK(%s hits=%d err=%d)" % (note, hits, err)
            if verdict != "OK":
                bad += 1
            print("VERIFY %s:%d %-6s hits=%d graph=%d %s" % (
                os.path.relpath(fn, ROOT), ln, kind, hits, gh, verdict), file=sys.stderr)
    print("VERIFY-SUMMARY problems=%d" % bad, file=sys.stderr)


if __name__ == "__main__":
    main()
