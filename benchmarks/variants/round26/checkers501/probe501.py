"""Run-time probe for TEN501 labels.

Usage:
  python probe501.py TARGET [--mutate REL:LINE:MODE] [--json OUT]

TARGET is a single program (prog.py) or a package name (pkg) under the
ten501 directory; packages are run as `python -m pkg.main`.

How a label is proven:
  * every autograd node created by a torch call is tagged with a global
    creation sequence number (a TorchFunctionMode writes it into
    grad_fn.metadata);
  * every labeled line is a "site"; right after the site's statement has
    executed (next line/return event in the same frame) the probe evaluates
    the KEEPER of that statement in the frame (the assignment target, the
    receiver of a method call, the first argument of a plain function call,
    or an override from overrides501.json), walks every object reachable from
    it (containers, __dict__, closures, partials, generator frames, modules'
    buffers ...) and, for each tensor, its whole autograd graph, collecting
    the sequence tags of the nodes;
  * the tags are mapped to iterations. An iteration boundary is, by default,
    each completed execution of the site itself; an override can name a loop
    header line instead (for per-episode buffers);
  * the site RETAINS a graph when at some execution the keeper reaches nodes
    created in two or more different iterations (nodes created before the
    first boundary -- set-up and the first iteration -- are ignored).
    `# expect: TEN501` requires RETAINS, `# ok` requires NOT RETAINS,
    every labeled site must run at least 3 times.

Mutations (--mutate): MODE=fix wraps the stored value(s) of the statement in
a detach helper; MODE=break removes .item()/.detach()/.tolist()/float()/int()
from the statement. The mutated source keeps the line numbering.
"""
import ast, bisect, builtins, collections, functools, importlib.machinery
import json, os, re, sys, types

import torch
from torch.overrides import TorchFunctionMode

ROOT = os.environ.get("TEN501_ROOT", "/tmp/r26/ten501")
HERE = os.path.dirname(os.path.abspath(__file__))
MARK_RE = re.compile(r"#\s*(expect:\s*TEN501|ok|either:\s*TEN501)\s*$")

SEQ = [0]


def _tag(out, seq):
    if isinstance(out, torch.Tensor):
        gf = out.grad_fn
        if gf is not None:
            md = gf.metadata
            if "m501" not in md:
                md["m501"] = seq
    elif isinstance(out, (tuple, list)):
        for o in out:
            _tag(o, seq)


class Tagger(TorchFunctionMode):
    def __torch_function__(self, func, types_, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        SEQ[0] += 1
        _tag(out, SEQ[0])
        return out


def _m501_detach(x):
    if isinstance(x, torch.Tensor):
        return x.detach()
    if isinstance(x, list):
        return [_m501_detach(v) for v in x]
    if isinstance(x, tuple):
        return tuple(_m501_detach(v) for v in x)
    if isinstance(x, dict):
        return type(x)((k, _m501_detach(v)) for k, v in x.items()) if type(x) is dict else {k: _m501_detach(v) for k, v in x.items()}
    return x


builtins._m501_detach = _m501_detach


# ---------------------------------------------------------------- sites
class Site:
    def __init__(self, rel, line, label, text):
        self.rel, self.line, self.label, self.text = rel, line, label, text
        self.keeper_exprs = []
        self.first_arg_if_module = None
        self.boundary = None  # (abs path, line) or None
        self.bounds = []
        self.hits = 0
        self.max_iters = 0
        self.max_iter_set = []
        self.max_nodes = 0
        self.errors = []

    def key(self):
        return f"{self.rel}:{self.line}"


def stmt_at(tree, line):
    best = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno == line:
            if best is None or node.col_offset > best.col_offset:
                best = node
    return best


def _container(t):
    """x[k] = v stores into the container x (a dict, list or tensor)."""
    while isinstance(t, ast.Subscript):
        t = t.value
    return t


def keeper_for(stmt):
    """Return (list of keeper source exprs, first-arg source for module calls)."""
    seg = ast.unparse
    if isinstance(stmt, ast.Assign):
        outs = []
        for t in stmt.targets:
            if isinstance(t, (ast.Tuple, ast.List)):
                outs += [seg(_container(e)) for e in t.elts]
            else:
                outs.append(seg(_container(t)))
        return outs, None
    if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        return [seg(_container(stmt.target))], None
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        f = call.func
        if isinstance(f, ast.Attribute):
            recv = f.value
            while isinstance(recv, ast.Call) and isinstance(recv.func, ast.Attribute):
                recv = recv.func.value
            first = seg(call.args[0]) if call.args else None
            return [seg(recv)], first
        if isinstance(f, ast.Name):
            return ([seg(call.args[0])] if call.args else []), None
    return [], None


def find_sites(files):
    sites = []
    for path in files:
        rel = os.path.relpath(path, ROOT)
        src = open(path).read()
        tree = ast.parse(src)
        for i, line in enumerate(src.splitlines(), 1):
            m = MARK_RE.search(line)
            if not m:
                continue
            lab = m.group(1)
            lab = "expect" if lab.startswith("expect") else ("either" if lab.startswith("either") else "ok")
            s = Site(rel, i, lab, line.strip())
            st = stmt_at(tree, i)
            if st is None:
                s.errors.append("no statement starts on this line")
            else:
                s.keeper_exprs, s.first_arg_if_module = keeper_for(st)
            s.path = path
            sites.append(s)
    return sites


def apply_overrides(sites, files):
    ov = json.load(open(os.path.join(HERE, "overrides501.json")))
    used = set()
    for s in sites:
        for sub, spec in ov.get(s.rel, {}).items():
            if sub in s.text:
                used.add((s.rel, sub))
                if "keeper" in spec:
                    s.keeper_exprs = spec["keeper"] if isinstance(spec["keeper"], list) else [spec["keeper"]]
                    s.first_arg_if_module = None
                if "boundary" in spec:
                    lines = open(s.path).read().splitlines()
                    hits = [i for i, l in enumerate(lines, 1) if spec["boundary"] in l]
                    if len(hits) != 1:
                        s.errors.append(f"boundary pattern matched {len(hits)} lines")
                    else:
                        s.boundary = (s.path, hits[0])
    rels = {s.rel for s in sites}
    for rel, d in ov.items():
        if rel in rels:
            for sub in d:
                if (rel, sub) not in used:
                    print(f"[probe501] WARNING override unused: {rel}: {sub}", file=sys.stderr)


# ---------------------------------------------------------------- walking
ATOMS = (str, bytes, int, float, bool, complex, type(None))


def collect_tags(root, limit_objs=200000, limit_nodes=400000):
    tags = []
    seen = set()
    keep = []
    stack = [root]
    nodes_seen = set()
    nodes_keep = []
    while stack:
        o = stack.pop()
        if isinstance(o, ATOMS):
            continue
        if id(o) in seen:
            continue
        seen.add(id(o))
        keep.append(o)
        if len(seen) > limit_objs:
            break
        if isinstance(o, torch.Tensor):
            gf = o.grad_fn
            if gf is not None:
                nst = [gf]
                while nst:
                    n = nst.pop()
                    if n is None or id(n) in nodes_seen:
                        continue
                    nodes_seen.add(id(n))
                    nodes_keep.append(n)
                    if len(nodes_seen) > limit_nodes:
                        break
                    t = n.metadata.get("m501")
                    if t is not None:
                        tags.append(t)
                    for nx, _ in n.next_functions:
                        if nx is not None:
                            nst.append(nx)
            continue
        if isinstance(o, (types.ModuleType, type)):
            continue
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
            continue
        if isinstance(o, (list, tuple, set, frozenset, collections.deque)):
            stack.extend(o)
            continue
        if isinstance(o, functools.partial):
            stack.extend([o.func, o.args, o.keywords])
            continue
        if isinstance(o, types.FunctionType):
            if o.__closure__:
                for c in o.__closure__:
                    try:
                        stack.append(c.cell_contents)
                    except ValueError:
                        pass
            if o.__defaults__:
                stack.extend(o.__defaults__)
            continue
        if isinstance(o, types.MethodType):
            stack.extend([o.__self__, o.__func__])
            continue
        if isinstance(o, types.GeneratorType):
            if o.gi_frame is not None:
                stack.extend(o.gi_frame.f_locals.values())
            continue
        if isinstance(o, (types.FrameType, types.CodeType, types.BuiltinFunctionType)):
            continue
        d = None
        try:
            d = object.__getattribute__(o, "__dict__")
        except Exception:
            pass
        if isinstance(d, dict):
            stack.extend(d.values())
        for cls in type(o).__mro__:
            for sl in cls.__dict__.get("__slots__", ()) if isinstance(cls.__dict__.get("__slots__", ()), (tuple, list)) else ():
                try:
                    stack.append(getattr(o, sl))
                except Exception:
                    pass
    return tags, len(nodes_seen)


def check_site(s, frame):
    s.hits += 1
    if s.boundary is None:
        s.bounds.append(SEQ[0])
    objs = []
    exprs = list(s.keeper_exprs)
    for ex in exprs:
        try:
            v = eval(compile(ex, "<keeper>", "eval"), frame.f_globals, frame.f_locals)
        except Exception as e:
            s.errors.append(f"keeper {ex!r}: {type(e).__name__}: {e}")
            continue
        if isinstance(v, types.ModuleType) and s.first_arg_if_module:
            try:
                v = eval(compile(s.first_arg_if_module, "<keeper>", "eval"), frame.f_globals, frame.f_locals)
            except Exception as e:
                s.errors.append(f"keeper arg: {e}")
                continue
        objs.append(v)
    if not exprs:
        s.errors.append("no keeper expression")
    tags, nn = collect_tags(objs)
    iters = {bisect.bisect_left(s.bounds, t) for t in tags}
    iters.discard(0)
    s.max_nodes = max(s.max_nodes, nn)
    if len(iters) > s.max_iters:
        s.max_iters = len(iters)
        s.max_iter_set = sorted(iters)[-6:]


# ---------------------------------------------------------------- tracing
def make_tracer(files, sites):
    by_loc = {(s.path, s.line): s for s in sites}
    bound_locs = collections.defaultdict(list)
    for s in sites:
        if s.boundary:
            bound_locs[s.boundary].append(s)
    pending = {}

    def local(frame, event, arg):
        if event in ("line", "return"):
            s = pending.pop(frame, None)
            if s is not None:
                with torch._C.DisableTorchFunction():
                    check_site(s, frame)
        if event == "line":
            loc = (frame.f_code.co_filename, frame.f_lineno)
            for b in bound_locs.get(loc, ()):
                b.bounds.append(SEQ[0])
            s = by_loc.get(loc)
            if s is not None:
                pending[frame] = s
        return local

    def glob(frame, event, arg):
        if frame.f_code.co_filename in files:
            return local
        return None

    return glob


# ---------------------------------------------------------------- mutation
class Fixer(ast.NodeTransformer):
    pass


def wrap(e):
    return ast.Call(func=ast.Name("_m501_detach", ast.Load()), args=[e], keywords=[])


def mutate_stmt(stmt, mode):
    if mode == "fix":
        if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            v = stmt.value
            c = v
            while isinstance(c, ast.Call):  # the value is handed to a call: detach its arguments too
                c.args = [wrap(a) if not isinstance(a, ast.Starred) else a for a in c.args]
                for k in c.keywords:
                    k.value = wrap(k.value)
                c = c.func.value if isinstance(c.func, ast.Attribute) else None
            stmt.value = wrap(v)
            return True
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            c = stmt.value
            while True:
                c.args = [wrap(a) if not isinstance(a, ast.Starred) else a for a in c.args]
                for k in c.keywords:
                    k.value = wrap(k.value)
                if isinstance(c.func, ast.Attribute) and isinstance(c.func.value, ast.Call):
                    c = c.func.value
                else:
                    break
            return True
        return False
    # break
    changed = [False]

    class Br(ast.NodeTransformer):
        def visit_Call(self, node):
            self.generic_visit(node)
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in ("item", "detach", "tolist", "numpy", "cpu") and not node.args:
                changed[0] = True
                return f.value
            if isinstance(f, ast.Name) and f.id in ("float", "int") and len(node.args) == 1:
                changed[0] = True
                return node.args[0]
            return node

    Br().visit(stmt)
    return changed[0]


def mutated_source(path, line, mode, src=None):
    if src is None:
        src = open(path).read()
    tree = ast.parse(src)
    st = stmt_at(tree, line)
    if st is None or not mutate_stmt(st, mode):
        return None
    lines = src.splitlines()
    old = lines[line - 1]
    m = MARK_RE.search(old)
    indent = old[: len(old) - len(old.lstrip())]
    new = indent + ast.unparse(st)
    if "\n" in new:
        return None
    lines[line - 1] = new + "  " + m.group(0)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- main
def main():
    args = sys.argv[1:]
    target = args[0]
    mutate = None
    out_json = None
    if "--mutate" in args:
        mutate = args[args.index("--mutate") + 1]
    if "--json" in args:
        out_json = args[args.index("--json") + 1]
    os.chdir(ROOT)
    sys.path.insert(0, ROOT)
    if target.endswith(".py"):
        files = [os.path.join(ROOT, target)]
        is_pkg = False
    else:
        pdir = os.path.join(ROOT, target)
        files = sorted(os.path.join(dp, f) for dp, _, fs in os.walk(pdir) for f in fs if f.endswith(".py"))
        is_pkg = True
    files = [os.path.abspath(f) for f in files]
    sites = find_sites(files)
    apply_overrides(sites, files)

    mutated = {}
    mut_status = None
    if mutate and mutate.startswith("all-"):
        # all-fix: fix every expect site; all-break: break every ok site
        mode = mutate[4:]
        want = "expect" if mode == "fix" else "ok"
        applied = []
        for s in sites:
            if s.label != want:
                continue
            ms = mutated_source(s.path, s.line, mode, mutated.get(s.path))
            if ms is not None:
                mutated[s.path] = ms
                applied.append(s.key())
        mut_status = {"mode": mode, "applied": applied}
    elif mutate:
        rel, line, mode = mutate.rsplit(":", 2)
        path = os.path.abspath(os.path.join(ROOT, rel))
        ms = mutated_source(path, int(line), mode)
        if ms is None:
            mut_status = "not-applicable"
        else:
            mutated[path] = ms
            mut_status = "applied"

    orig_get_code = importlib.machinery.SourceFileLoader.get_code

    def get_code(self, fullname):
        p = os.path.abspath(self.get_filename(fullname))
        if p in mutated:
            return compile(mutated[p], p, "exec", dont_inherit=True)
        return orig_get_code(self, fullname)

    importlib.machinery.SourceFileLoader.get_code = get_code
    sys.dont_write_bytecode = True

    if mutated:
        # mutants may leave tensors where the program later calls round(); keep them running
        _round = builtins.round
        builtins.round = lambda x, *a: _round(x.item() if isinstance(x, torch.Tensor) else x, *a)
    tracer = make_tracer(set(files), sites)
    err = None
    rc = 0
    sys.argv = [target]
    real_stdout = sys.stdout
    sys.stdout = open(os.devnull, "w")
    if mut_status != "not-applicable":
        try:
            with Tagger():
                sys.settrace(tracer)
                try:
                    if is_pkg:
                        import runpy
                        runpy.run_module(target + ".main", run_name="__main__", alter_sys=True)
                    else:
                        path = files[0]
                        src = mutated.get(path) or open(path).read()
                        mod = types.ModuleType("__main__")
                        mod.__file__ = path
                        sys.modules["__main__"] = mod
                        exec(compile(src, path, "exec", dont_inherit=True), mod.__dict__)
                finally:
                    sys.settrace(None)
        except SystemExit as e:
            rc = e.code or 0
        except BaseException as e:  # noqa
            import traceback
            err = traceback.format_exc()
            rc = 1
    sys.stdout = real_stdout
    res = {
        "target": target,
        "rc": rc,
        "error": err,
        "mutation": mutate,
        "mutation_status": mut_status,
        "mutated_lines": {os.path.relpath(p, ROOT): [f"{i}: {b.strip()}" for i, (a, b) in enumerate(zip(open(p).read().splitlines(), src.splitlines()), 1) if a != b] for p, src in mutated.items()},
        "sites": [
            {
                "site": s.key(),
                "label": s.label,
                "hits": s.hits,
                "boundaries": len(s.bounds),
                "max_iters_reached": s.max_iters,
                "iters_sample": s.max_iter_set,
                "max_nodes": s.max_nodes,
                "retains": s.max_iters >= 2,
                "keeper": s.keeper_exprs,
                "boundary": f"line {s.boundary[1]}" if s.boundary else "site",
                "errors": sorted(set(s.errors))[:3],
                "text": s.text,
            }
            for s in sites
        ],
    }
    js = json.dumps(res, indent=1)
    if out_json:
        open(out_json, "w").write(js)
    else:
        print(js)


if __name__ == "__main__":
    main()
