#!/usr/bin/env python
"""Run-time checker for the TEN501 labels in /tmp/r22/ten501.

For every line that carries `# expect: TEN501` or `# ok`, the program is run
under sys.settrace.  Each time the marked statement finishes executing, the
"keeper" of that statement is evaluated in the executing frame:

  * `x += v`, `x = ...`, `a, b = ...`       -> the target(s); `c[k] = v` and
                                               `c[k] += v` -> `c[k]` re-read after
                                               the store (the container when
                                               the subscript contains a call)
  * `recv.append(v)` / `.extend` / `.add` / `.put` / ...  -> `recv`
    (`d[k].append` -> `d[k]`; a call receiver such as `d.setdefault(k, [])`
    is reduced to `d`)
  * `heapq.heappush(h, v)`, `bisect.insort(h, v)`        -> `h`
  * `setattr(o, name, v)`                                -> `getattr(o, name)`
  * any other call `f(a, b)` / `obj.m(a, b)`             -> `obj` and the
                                                            plain-name args;
    for `f(...)` also `f` itself: a functools.partial's bound arguments or
    a function's closure cells
  * a `lambda` on the line whose body is such a call     -> evaluated in the
                                                            lambda's own frame

The keeper value is walked (tensors, list/tuple/dict/set/deque, objects'
__dict__, nn.Module buffers/attributes) and the set of autograd nodes reachable
from every tensor's grad_fn is recorded (AccumulateGrad leaves excluded).
Node wrappers are kept alive by the checker, so id() is a stable identity.

torch.autograd.backward and torch.autograd.grad are wrapped; each call walks
the graph from its roots and records which nodes that backward (numbered
0,1,2,...) consumed.

A line is KEPT when for some pair of its hits i < j
  (1) some node reachable from the keeper at hit i is still reachable at hit j,
  (2) the number of reachable nodes grew from hit i to hit j, and
  (3) at least one of those common nodes is stale: a backward ran between
      hit i and hit j and some backward before hit j already went through
      that node (its step is over), or no backward ever consumed it during
      the whole run (a graph that is built and never used).
Condition (3) separates a graph kept across training iterations from a value
that is legitimately collected inside one step and backpropagated afterwards.

`# expect` is confirmed when the line is KEPT (needs >= 2 hits).
`# ok` is confirmed when the line ran at least once and is not KEPT.
`# either` lines are traced too and reported for information only.

Usage:
  python check_ten501.py                 # all t*.py and pkg_*/ in the root
  python check_ten501.py t05_vae.py pkg_a  # some targets
  python check_ten501.py --verbose ...     # per-line table
  python check_ten501.py --json=out.json   # also dump every child report
"""
import ast
import json
import os
import re
import subprocess
import sys

ROOT = os.environ.get("TEN501_ROOT", "/tmp/r22/ten501")
MARK_RE = re.compile(r"#\s*(expect:\s*TEN501|ok|either:\s*TEN501)\s*$")


def marker_of(line):
    m = MARK_RE.search(line)
    if not m:
        return None
    t = m.group(1)
    if t.startswith("expect"):
        return "expect"
    if t.startswith("either"):
        return "either"
    return "ok"


# --------------------------------------------------------------------------
# static part: find the keeper expression(s) of each marked line
# --------------------------------------------------------------------------
CONTAINER_METHODS = {
    "append", "extend", "insert", "add", "update", "appendleft", "extendleft",
    "put", "put_nowait", "setdefault", "__setitem__", "copy_", "add_", "mul_",
    "sub_", "lerp_", "index_copy_", "scatter_", "fill_",
}
FIRST_ARG_FUNCS = {"heappush", "heappushpop", "heapreplace", "insort",
                   "insort_left", "insort_right"}


def base_of(node):
    """Reduce a target / receiver expression to the long-lived object."""
    while True:
        if isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value
        elif isinstance(node, ast.Starred):
            node = node.value
        else:
            return node


def flatten_targets(t):
    if isinstance(t, (ast.Tuple, ast.List)):
        out = []
        for e in t.elts:
            out.extend(flatten_targets(e))
        return out
    return [t]


def plain(node):
    """True for expressions that are safe to re-evaluate (no calls)."""
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom,
                            ast.NamedExpr, ast.Lambda)):
            return False
    return True


def call_keepers(call):
    f = call.func
    if isinstance(f, ast.Name) and f.id == "setattr" and len(call.args) >= 2:
        return ["getattr(%s, %s)" % (ast.unparse(call.args[0]), ast.unparse(call.args[1]))]
    fname = f.attr if isinstance(f, ast.Attribute) else (f.id if isinstance(f, ast.Name) else None)
    if fname in FIRST_ARG_FUNCS and call.args:
        return [ast.unparse(base_of(call.args[0]))]
    if isinstance(f, ast.Attribute):
        recv = f.value
        while isinstance(recv, ast.Call) and isinstance(recv.func, ast.Attribute):
            recv = recv.func.value          # d.setdefault(k, []).append -> d
        if not plain(recv):
            recv = base_of(recv)
        if fname in CONTAINER_METHODS:
            return [ast.unparse(recv)]
        out = [ast.unparse(recv)] if plain(recv) else []
    else:
        # plain function call: the callee itself may hold the store
        # (functools.partial arguments, closure cells of a lambda/inner def)
        out = [ast.unparse(f)] if isinstance(f, ast.Name) and f.id not in dir(__builtins__) else []
    for a in list(call.args) + [k.value for k in call.keywords]:
        if isinstance(a, (ast.Name, ast.Attribute, ast.Subscript)) and plain(a):
            out.append(ast.unparse(a))
    return out


def target_expr(t):
    """`c[k]` (re-evaluated after the store) when re-evaluation is side-effect
    free, else the underlying container."""
    if isinstance(t, ast.Subscript) and plain(t):
        return ast.unparse(t)
    return ast.unparse(base_of(t))


def stmt_keepers(stmt):
    if isinstance(stmt, ast.AugAssign):
        return [target_expr(stmt.target)]
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        out = []
        for t in targets:
            for e in flatten_targets(t):
                out.append(target_expr(e))
        return out
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        return call_keepers(stmt.value)
    if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Call):
        return call_keepers(stmt.value)
    return []


class LineInfo:
    def __init__(self, path, lineno, label, text):
        self.path = path
        self.lineno = lineno
        self.label = label
        self.text = text.strip()
        self.start = lineno
        self.end = lineno
        self.lambda_mode = False
        self.exprs = []
        self.codes = []
        self.hits = []      # list of (bw_counter, frozenset(ids), count)
        self.errors = []


def analyse_file(path):
    src = open(path).read()
    tree = ast.parse(src)
    lines = src.splitlines()
    stmts = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            stmts.setdefault(node.lineno, []).append(node)
    infos = {}
    for i, text in enumerate(lines, 1):
        lab = marker_of(text)
        if lab is None:
            continue
        info = LineInfo(path, i, lab, text)
        cands = stmts.get(i, [])
        # innermost simple statement starting on this line
        simple = [s for s in cands if not isinstance(
            s, (ast.For, ast.While, ast.If, ast.With, ast.FunctionDef,
                ast.ClassDef, ast.Try, ast.AsyncFor, ast.AsyncWith))]
        stmt = simple[-1] if simple else (cands[-1] if cands else None)
        if stmt is None:
            info.errors.append("no statement starts on this line")
            infos[i] = info
            continue
        info.end = getattr(stmt, "end_lineno", i) or i
        lam = None
        for sub in ast.walk(stmt):
            if isinstance(sub, ast.Lambda) and sub.lineno == i:
                lam = sub
                break
        if lam is not None and isinstance(lam.body, ast.Call):
            info.lambda_mode = True
            info.exprs = call_keepers(lam.body)
        else:
            info.exprs = stmt_keepers(stmt)
        if not info.exprs:
            info.errors.append("could not derive a keeper expression")
        info.codes = [compile(e, "<keeper>", "eval") for e in info.exprs]
        infos[i] = info
    return infos


# --------------------------------------------------------------------------
# dynamic part (child process)
# --------------------------------------------------------------------------
def run_child(target):
    import collections
    import functools
    import runpy
    import types

    import torch

    if os.environ.get("TEN501_DET"):
        # used by mutate_ten501.py: the mutated programs call _det(value)
        import builtins
        import dataclasses

        def _det(x):
            if isinstance(x, torch.Tensor):
                return x.detach()
            if isinstance(x, tuple) and hasattr(x, "_fields"):
                return type(x)(*[_det(v) for v in x])
            if isinstance(x, (list, tuple)):
                return type(x)(_det(v) for v in x)
            if isinstance(x, dict):
                return {k: _det(v) for k, v in x.items()}
            if dataclasses.is_dataclass(x) and not isinstance(x, type):
                return dataclasses.replace(x, **{f.name: _det(getattr(x, f.name))
                                                 for f in dataclasses.fields(x)})
            return x
        builtins._det = _det
        builtins._det_at = lambda seq, idx: type(seq)(
            _det(v) if i in idx else v for i, v in enumerate(seq))

    ALIVE = {}
    CONSUMED = collections.defaultdict(list)   # node id -> [backward index]
    STATE = {"bw": 0}

    def walk_nodes(roots):
        ids = set()
        stack = [r for r in roots if r is not None]
        while stack:
            n = stack.pop()
            if n is None:
                continue
            i = id(n)
            if i in ids:
                continue
            if type(n).__name__ == "AccumulateGrad":
                continue
            ids.add(i)
            if i not in ALIVE:
                ALIVE[i] = n
            try:
                nxt = n.next_functions
            except Exception:
                nxt = ()
            for m, _ in nxt:
                if m is not None:
                    stack.append(m)
        return ids

    def mark_consumed(tensors):
        if isinstance(tensors, torch.Tensor):
            tensors = [tensors]
        roots = [t.grad_fn for t in tensors if isinstance(t, torch.Tensor)]
        idx = STATE["bw"]
        for i in walk_nodes(roots):
            CONSUMED[i].append(idx)
        STATE["bw"] += 1

    orig_backward = torch.autograd.backward
    orig_grad = torch.autograd.grad

    def backward(tensors, *a, **k):
        mark_consumed(tensors)
        return orig_backward(tensors, *a, **k)

    def grad(outputs, *a, **k):
        mark_consumed(outputs)
        return orig_grad(outputs, *a, **k)

    torch.autograd.backward = backward
    torch.autograd.grad = grad

    SKIP_TYPES = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
                  types.MethodType, type, types.GeneratorType, types.FrameType,
                  types.CodeType)

    def keeper_roots(value):
        roots = []
        seen = set()
        stack = [(value, 0)]
        budget = 200000
        while stack and budget > 0:
            budget -= 1
            obj, d = stack.pop()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if isinstance(obj, torch.Tensor):
                if obj.grad_fn is not None:
                    roots.append(obj.grad_fn)
                continue
            if obj is None or isinstance(obj, (str, bytes, int, float, complex, bool)):
                continue
            if d == 0 and isinstance(obj, functools.partial):
                stack.append((obj.args, 1))
                stack.append((obj.keywords, 1))
                continue
            if d == 0 and isinstance(obj, types.FunctionType):
                for cell in obj.__closure__ or ():
                    try:
                        stack.append((cell.cell_contents, 1))
                    except ValueError:
                        pass
                continue
            if d == 0 and isinstance(obj, type):
                # a class used as a keeper (Class.attr / cls.method(...))
                stack.append((dict(vars(obj)), 1))
                continue
            if isinstance(obj, SKIP_TYPES) or d > 7:
                continue
            if isinstance(obj, dict):
                for k, v in list(obj.items()):
                    stack.append((k, d + 1))
                    stack.append((v, d + 1))
                continue
            if isinstance(obj, (list, tuple, set, frozenset, collections.deque)):
                for v in list(obj):
                    stack.append((v, d + 1))
                continue
            dct = getattr(obj, "__dict__", None)
            if isinstance(dct, dict):
                stack.append((dct, d + 1))
            for slot in getattr(type(obj), "__slots__", ()) or ():
                if isinstance(slot, str) and hasattr(obj, slot):
                    stack.append((getattr(obj, slot), d + 1))
        return roots

    if os.path.isdir(target):
        files = sorted(os.path.join(target, f) for f in os.listdir(target) if f.endswith(".py"))
        mod = os.path.basename(os.path.normpath(target)) + ".main"
        runner = lambda: runpy.run_module(mod, run_name="__main__", alter_sys=True)
        sys.path.insert(0, os.path.dirname(os.path.normpath(target)))
    else:
        files = [target]
        runner = lambda: runpy.run_path(target, run_name="__main__")
        sys.path.insert(0, os.path.dirname(target))
    os.chdir(ROOT)
    infos_by_file = {os.path.abspath(f): analyse_file(f) for f in files}

    COMPREHENSIONS = {"<listcomp>", "<genexpr>", "<dictcomp>", "<setcomp>"}
    pending = {}

    def evaluate(info, frame):
        ids = set()
        try:
            loc = frame.f_locals
            for code in info.codes:
                val = eval(code, frame.f_globals, loc)
                ids |= walk_nodes(keeper_roots(val))
        except Exception as e:  # pragma: no cover - reported
            if len(info.errors) < 3:
                info.errors.append("eval: %r" % (e,))
            return
        info.hits.append((STATE["bw"], frozenset(ids), len(ids)))

    def local_tracer(frame, event, arg):
        if event in ("line", "return"):
            p = pending.get(frame)
            if p is not None and (event == "return" or not (p.start <= frame.f_lineno <= p.end)):
                del pending[frame]
                evaluate(p, frame)
            if event == "line" and frame not in pending:
                infos = infos_by_file.get(frame.f_code.co_filename)
                info = infos.get(frame.f_lineno) if infos else None
                if info is not None and info.codes:
                    name = frame.f_code.co_name
                    if info.lambda_mode:
                        ok = name == "<lambda>"
                    else:
                        ok = name != "<lambda>" and name not in COMPREHENSIONS
                    if ok:
                        pending[frame] = info
        return local_tracer

    def global_tracer(frame, event, arg):
        if frame.f_code.co_filename in infos_by_file:
            return local_tracer
        return None

    import io
    import contextlib
    out = io.StringIO()
    rc = 0
    err = None
    sys.settrace(global_tracer)
    try:
        with contextlib.redirect_stdout(out):
            runner()
    except SystemExit as e:
        rc = e.code or 0
    except BaseException as e:  # report
        rc = 1
        err = repr(e)
    finally:
        sys.settrace(None)

    results = []
    for path, infos in infos_by_file.items():
        for ln, info in sorted(infos.items()):
            kept, why = False, ""
            hits = info.hits
            grew = len(hits) >= 2 and hits[-1][2] > hits[0][2]
            for j in range(1, len(hits)):
                bj = hits[j][0]
                cands = {j - 1, 0}
                for i in range(j - 1, -1, -1):
                    if hits[i][0] < bj:
                        cands.add(i)
                        break
                for i in sorted(cands):
                    if i >= j:
                        continue
                    bi = hits[i][0]
                    common = hits[i][1] & hits[j][1]
                    if not common or hits[j][2] <= hits[i][2]:
                        continue
                    stale = [n for n in common if CONSUMED.get(n) and min(CONSUMED[n]) < bj]
                    unused = [n for n in common if not CONSUMED.get(n)]
                    if bi < bj and stale:
                        kept, why = True, ("hit %d graph still held at hit %d; a backward ran in "
                                           "between and backward #%d had already used it") % (
                            i + 1, j + 1, min(CONSUMED[stale[0]]))
                    elif unused:
                        kept, why = True, "hit %d graph still held at hit %d; never backpropagated" % (
                            i + 1, j + 1)
                    if kept:
                        break
                if kept:
                    break
            if info.label == "expect":
                status = "CONFIRMED" if kept else "CONTRADICTED"
            elif info.label == "ok":
                status = "CONFIRMED" if (hits and not kept) else ("NOT-HIT" if not hits else "CONTRADICTED")
            else:
                status = "info"
            if not hits and info.label == "expect":
                status = "NOT-HIT"
            results.append({
                "file": os.path.relpath(path, ROOT), "line": ln, "label": info.label,
                "text": info.text, "keeper": info.exprs, "hits": len(hits),
                "graph_hits": sum(1 for h in hits if h[2]),
                "nodes_first": hits[0][2] if hits else None,
                "nodes_last": hits[-1][2] if hits else None,
                "grew": grew, "kept": kept, "why": why,
                "status": status, "errors": info.errors,
            })
    print(json.dumps({"target": target, "rc": rc, "error": err,
                      "backwards": STATE["bw"], "results": results}))


# --------------------------------------------------------------------------
# parent
# --------------------------------------------------------------------------
def main(argv):
    verbose = "--verbose" in argv
    args = [a for a in argv if not a.startswith("--")]
    if "--child" in argv:
        run_child(args[0])
        return 0
    if args:
        targets = [os.path.join(ROOT, a) if not os.path.isabs(a) else a for a in args]
    else:
        targets = sorted(os.path.join(ROOT, f) for f in os.listdir(ROOT)
                         if (f.startswith("t") and f.endswith(".py"))
                         or (f.startswith("pkg_") and os.path.isdir(os.path.join(ROOT, f))))
    totals = {"expect": [0, 0], "ok": [0, 0], "either": [0, 0]}
    problems = []
    reports = []
    for t in targets:
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", t],
                           capture_output=True, text=True, timeout=600)
        try:
            rep = json.loads(p.stdout.strip().splitlines()[-1])
        except Exception:
            problems.append("%s: checker crashed: %s" % (t, p.stderr[-2000:]))
            continue
        reports.append(rep)
        if rep["rc"] != 0:
            problems.append("%s: program exit %r %s" % (t, rep["rc"], rep["error"]))
        for r in rep["results"]:
            lab = r["label"]
            totals[lab][1] += 1
            if r["status"] in ("CONFIRMED",) or (lab == "either"):
                totals[lab][0] += 1 if lab != "either" else int(r["kept"])
            if lab != "either" and r["status"] != "CONFIRMED":
                problems.append("%s:%d [%s] %s  hits=%d nodes %s->%s kept=%s %s %s" % (
                    r["file"], r["line"], lab, r["status"], r["hits"], r["nodes_first"],
                    r["nodes_last"], r["kept"], r["text"][:70], r["errors"]))
            if verbose:
                print("%-34s %4d %-6s %-12s hits=%-3d nodes=%s->%s kept=%-5s %s" % (
                    r["file"], r["line"], lab, r["status"], r["hits"], r["nodes_first"],
                    r["nodes_last"], r["kept"], r["why"] or ""))
        print("%-40s rc=%s backwards=%s lines=%d" % (os.path.relpath(t, ROOT), rep["rc"],
                                                      rep["backwards"], len(rep["results"])))
    json_out = [a.split("=", 1)[1] for a in argv if a.startswith("--json=")]
    if json_out:
        with open(json_out[0], "w") as fh:
            json.dump(reports, fh, indent=1)
    print()
    print("expect confirmed: %d/%d" % tuple(totals["expect"]))
    print("ok     confirmed: %d/%d" % tuple(totals["ok"]))
    print("either (info)   : %d of %d observed KEPT" % tuple(totals["either"]))
    if problems:
        print("\nPROBLEMS:")
        for p in problems:
            print("  " + p)
        return 1
    print("\nno contradictions")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
