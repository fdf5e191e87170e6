#!/usr/bin/env python
"""Run-time label checker for the TEN501 test set.

For every line carrying `# expect: TEN501`, `# ok` or `# either: TEN501` the
checker runs the program under sys.settrace.  Each time the labeled statement
has finished executing (next line event / return in the same frame) it
evaluates the *accumulator* of the statement in that frame (default: the
assignment target, the object whose method is called, or the name/attribute
arguments of a plain call; overridable in config.json), walks everything the
accumulator reaches (containers, object attributes, closures, partials) and
collects every autograd graph node (non-AccumulateGrad) reachable from the
tensors found there.  Every node is tagged with the iteration in which this
label first saw it.  A label "keeps a graph across iterations" iff at some
completion the accumulator reaches nodes tagged with two different
iterations.

Iteration = one pass of the innermost enclosing for/while loop of the labeled
line inside its own function ("inner", default), the outermost enclosing loop
("outer"), or one call of the function ("call"; used automatically when the
line is not inside a loop).

Usage:
  check.py                 # check the whole set, write results.txt
  check.py --root DIR      # check another copy (used by mutate.py)
  check.py --one TARGET    # internal: trace one program, print JSON
"""
import ast, collections, functools, json, os, re, subprocess, sys, time, types

HERE = os.path.dirname(os.path.abspath(__file__))
MARK_RE = re.compile(r"#\s*(expect: TEN501|ok|either: TEN501)\s*$")


def find_labels(path):
    out = {}
    with open(path) as f:
        for i, line in enumerate(f, 1):
            m = MARK_RE.search(line)
            if m:
                kind = m.group(1).split(":")[0]
                out[i] = (kind, line.rstrip("\n"))
    return out


def stmt_at(tree, line):
    best = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno == line:
            if isinstance(node, (ast.For, ast.While, ast.If, ast.With, ast.FunctionDef,
                                 ast.ClassDef, ast.Try, ast.AsyncFor, ast.AsyncWith)):
                continue
            if best is None or (node.end_lineno - node.lineno) < (best.end_lineno - best.lineno):
                best = node
    return best


def enclosing_loops(tree, stmt):
    """Loops enclosing stmt inside its innermost function (outermost first)."""
    path = []

    def visit(node, stack):
        if node is stmt:
            path.extend(stack)
            return True
        for child in ast.iter_child_nodes(node):
            new = stack
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                new = []
            elif isinstance(node, (ast.For, ast.While)) and child in node.body:
                new = stack + [node]
            if visit(child, new):
                return True
        return False

    visit(tree, [])
    # dedupe, keep order
    seen, res = set(), []
    for n in path:
        if id(n) not in seen:
            seen.add(id(n))
            res.append(n)
    return res


def default_acc(stmt):
    if isinstance(stmt, ast.AugAssign):
        return [ast.unparse(stmt.target)]
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        tgts = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        res = []
        for t in tgts:
            if isinstance(t, ast.Tuple):
                res += [ast.unparse(e) for e in t.elts]
            else:
                res.append(ast.unparse(t))
        return res
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        if isinstance(call.func, ast.Attribute):
            return [ast.unparse(call.func.value)]
        res = []
        for a in list(call.args) + [k.value for k in call.keywords]:
            if isinstance(a, (ast.Name, ast.Attribute)):
                res.append(ast.unparse(a))
        return res
    raise ValueError("no default accumulator for: " + ast.unparse(stmt))


def load_config(root):
    p = os.path.join(HERE, "config.json")
    if not os.path.exists(p):
        return []
    with open(p) as f:
        return json.load(f)


# ---------------------------------------------------------------- tracing ---
def trace_one(target, root):
    import torch  # noqa

    config = load_config(root)
    if target.startswith("-m "):
        modname = target[3:].strip()
        pkgdir = os.path.join(root, modname.split(".")[0])
        files = [os.path.join(pkgdir, f) for f in sorted(os.listdir(pkgdir)) if f.endswith(".py")]
    else:
        files = [os.path.join(root, target)]

    labels = {}  # (abs file, line) -> info
    for fp in files:
        fp = os.path.abspath(fp)
        labs = find_labels(fp)
        if not labs:
            continue
        tree = ast.parse(open(fp).read())
        for line, (kind, text) in labs.items():
            st = stmt_at(tree, line)
            rel = os.path.relpath(fp, root)
            info = {"file": rel, "line": line, "kind": kind, "text": text.strip(),
                    "execs": 0, "iters": set(), "cross": False, "max_iters_reached": 0,
                    "error": None}
            if st is None:
                info["error"] = "no statement starts on this line"
                labels[(fp, line)] = info
                continue
            acc, mode = None, None
            for c in config:
                if c["file"] == rel and c["match"] in text:
                    acc, mode = c.get("acc"), c.get("iter")
            if acc is None:
                try:
                    acc = default_acc(st)
                except ValueError as e:
                    info["error"] = str(e)
            elif isinstance(acc, str):
                acc = [acc]
            loops = enclosing_loops(tree, st)
            if mode is None:
                mode = "inner" if loops else "call"
            if mode == "inner" and loops:
                hdr = loops[-1].lineno
            elif mode == "outer" and loops:
                hdr = loops[0].lineno
            else:
                mode, hdr = "call", None
            info.update(acc=acc, mode=mode, hdr=hdr, end=st.end_lineno, tags={}, nodes=[])
            labels[(fp, line)] = info

    label_files = {k[0] for k in labels}
    hdr_lines = collections.defaultdict(set)
    for (fp, line), info in labels.items():
        if info.get("hdr"):
            hdr_lines[fp].add(info["hdr"])

    call_serial = [0]
    frame_state = {}  # id(frame) -> dict(serial, hdrcount{line:n}, pending)

    def graph_nodes(objs):
        tensors = []
        seen = set()
        budget = [300000]

        def walk(o, depth):
            if budget[0] <= 0:
                return
            budget[0] -= 1
            if id(o) in seen:
                return
            seen.add(id(o))
            if isinstance(o, torch.Tensor):
                tensors.append(o)
                return
            if o is None or isinstance(o, (str, bytes, int, float, bool, complex, type)):
                return
            if depth > 12:
                return
            if isinstance(o, types.ModuleType):
                if depth == 0:
                    for v in list(vars(o).values()):
                        if not isinstance(v, (types.ModuleType, type, types.FunctionType)):
                            walk(v, depth + 1)
                return
            if isinstance(o, dict):
                for k, v in list(o.items()):
                    walk(k, depth + 1)
                    walk(v, depth + 1)
                return
            if isinstance(o, (list, tuple, set, frozenset, collections.deque)):
                for v in list(o):
                    walk(v, depth + 1)
                return
            if isinstance(o, functools.partial):
                walk(o.func, depth + 1)
                walk(o.args, depth + 1)
                walk(o.keywords, depth + 1)
                return
            if isinstance(o, types.FunctionType):
                for c in (o.__closure__ or ()):
                    try:
                        walk(c.cell_contents, depth + 1)
                    except ValueError:
                        pass
                walk(o.__defaults__, depth + 1)
                return
            if isinstance(o, types.MethodType):
                walk(o.__self__, depth + 1)
                walk(o.__func__, depth + 1)
                return
            if isinstance(o, (types.GeneratorType, types.BuiltinFunctionType, types.CodeType)):
                return
            d = getattr(o, "__dict__", None)
            if isinstance(d, dict):
                walk(d, depth + 1)
            for cls in type(o).__mro__:
                for s in getattr(cls, "__slots__", ()) or ():
                    if hasattr(o, s):
                        walk(getattr(o, s), depth + 1)

        for o in objs:
            walk(o, 0)
        nodes = {}
        stack = [t.grad_fn for t in tensors if t.grad_fn is not None]
        while stack:
            n = stack.pop()
            if n is None or id(n) in nodes:
                continue
            nodes[id(n)] = n
            for nxt, _ in n.next_functions:
                if nxt is not None and id(nxt) not in nodes:
                    stack.append(nxt)
        return {k: v for k, v in nodes.items() if type(v).__name__ != "AccumulateGrad"}

    def complete(frame, info, iter_id):
        info["execs"] += 1
        info["iters"].add(iter_id)
        if info.get("error") or not info.get("acc"):
            return
        objs = []
        g = dict(frame.f_globals)
        g["sys"] = sys
        for expr in info["acc"]:
            try:
                objs.append(eval(expr, g, frame.f_locals))
            except Exception as e:  # noqa
                info["error"] = "cannot evaluate accumulator %r: %r" % (expr, e)
                return
        nodes = graph_nodes(objs)
        tags = info["tags"]
        its = set()
        for k, n in nodes.items():
            if k not in tags:
                tags[k] = iter_id
                info["nodes"].append(n)  # keep alive so ids stay unique
            its.add(tags[k])
        info["max_iters_reached"] = max(info["max_iters_reached"], len(its))
        if len(its) >= 2:
            info["cross"] = True

    def iter_id_for(st, info):
        if info["mode"] == "call":
            return (st["serial"],)
        return (st["serial"], st["hdr"].get(info["hdr"], 0))

    def local_trace(frame, event, arg):
        fp = frame.f_code.co_filename
        st = frame_state.get(id(frame))
        if st is None:
            return local_trace
        if event in ("line", "return"):
            pend = st["pending"]
            if pend is not None:
                info, iid = pend
                if event == "return" or not (info["line"] <= frame.f_lineno <= info["end"]):
                    st["pending"] = None
                    complete(frame, info, iid)
            if event == "line":
                ln = frame.f_lineno
                if ln in hdr_lines.get(fp, ()):
                    st["hdr"][ln] = st["hdr"].get(ln, 0) + 1
                info = labels.get((fp, ln))
                if info is not None and st["pending"] is None and "acc" in info:
                    st["pending"] = (info, iter_id_for(st, info))
            if event == "return":
                frame_state.pop(id(frame), None)
        return local_trace

    def global_trace(frame, event, arg):
        if event != "call":
            return None
        fp = frame.f_code.co_filename
        if fp not in label_files:
            return None
        call_serial[0] += 1
        frame_state[id(frame)] = {"serial": call_serial[0], "hdr": {}, "pending": None}
        return local_trace

    import runpy, threading
    sys.path.insert(0, root)
    os.chdir(root)
    rc = 0
    sys.settrace(global_trace)
    threading.settrace(global_trace)
    try:
        if target.startswith("-m "):
            sys.argv = [target[3:].strip()]
            runpy.run_module(target[3:].strip(), run_name="__main__", alter_sys=True)
        else:
            sys.argv = [os.path.join(root, target)]
            runpy.run_path(os.path.join(root, target), run_name="__main__")
    except SystemExit as e:
        rc = e.code or 0
    finally:
        sys.settrace(None)
        threading.settrace(None)
    res = []
    for info in labels.values():
        res.append({k: info.get(k) for k in ("file", "line", "kind", "text", "execs", "cross",
                                              "max_iters_reached", "error", "mode", "acc")}
                   | {"n_iters": len(info["iters"])})
    return rc, res


# ----------------------------------------------------------------- driver ---
def targets(root):
    out = []
    for name in sorted(os.listdir(root)):
        p = os.path.join(root, name)
        if name.endswith(".py") and os.path.isfile(p):
            out.append(name)
        elif os.path.isdir(p) and os.path.exists(os.path.join(p, "main.py")):
            out.append("-m %s.main" % name)
    return out


def main():
    args = sys.argv[1:]
    root = "/tmp/r23/ten501"
    if "--root" in args:
        i = args.index("--root")
        root = args[i + 1]
        del args[i:i + 2]
    root = os.path.abspath(root)
    if args and args[0] == "--one":
        rc, res = trace_one(args[1], root)
        sys.stdout.flush()
        print("@@JSON@@" + json.dumps({"rc": rc, "labels": res}))
        return
    fast = "--fast" in args
    only = [a for a in args if a != "--fast"]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    lines = []
    ndis = nerr = 0
    counts = collections.Counter()
    t0 = time.time()
    for tgt in targets(root):
        if only and not any(o in tgt for o in only):
            continue
        # plain run (must exit 0)
        tp = time.time()
        plain = subprocess.CompletedProcess([], 0) if fast else subprocess.run([sys.executable] + (tgt.split() if tgt.startswith("-m") else [tgt]),
                               cwd=root, env=env, capture_output=True, text=True, timeout=300)
        tp = time.time() - tp
        if plain.returncode != 0:
            nerr += 1
            lines.append("ERROR %s: plain run rc=%d\n%s" % (tgt, plain.returncode, plain.stderr[-2000:]))
            continue
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--root", root, "--one", tgt],
                           cwd=root, env=env, capture_output=True, text=True, timeout=600)
        js = [l for l in r.stdout.splitlines() if l.startswith("@@JSON@@")]
        if r.returncode != 0 or not js:
            nerr += 1
            lines.append("ERROR %s: traced run failed\n%s" % (tgt, r.stderr[-3000:]))
            continue
        data = json.loads(js[-1][8:])
        lines.append("== %s  (plain run %.1fs, rc=%s)" % (tgt, tp, data["rc"]))
        for L in sorted(data["labels"], key=lambda d: (d["file"], d["line"])):
            kind = L["kind"]
            counts[kind] += 1
            if L["error"]:
                status = "ERROR(%s)" % L["error"]
                nerr += 1
            elif L["execs"] < 2 or L["n_iters"] < 2:
                status = "ERROR(not exercised in 2 iterations: execs=%d iters=%d)" % (L["execs"], L["n_iters"])
                nerr += 1
            else:
                verdict = "KEEPS-GRAPH" if L["cross"] else "no-graph-kept"
                if kind == "either":
                    status = "either -> " + verdict
                elif (kind == "expect") == L["cross"]:
                    status = "agree (" + verdict + ")"
                else:
                    status = "DISAGREE (" + verdict + ")"
                    ndis += 1
            lines.append("  %s:%d [%s] %s  execs=%d iters=%d mode=%s acc=%s  | %s" % (
                L["file"], L["line"], kind, status, L["execs"], L["n_iters"], L["mode"],
                L["acc"], L["text"][:110]))
    summary = "SUMMARY: labels=%d (expect=%d ok=%d either=%d) disagreements=%d errors=%d  (%.0fs)" % (
        sum(counts.values()), counts["expect"], counts["ok"], counts["either"], ndis, nerr, time.time() - t0)
    lines.append(summary)
    text = "\n".join(lines)
    print(text)
    if not only and root == "/tmp/r23/ten501":
        with open(os.path.join(HERE, "results.txt"), "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
