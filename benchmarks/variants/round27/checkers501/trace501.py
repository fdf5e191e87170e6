"""Run-time label checker for TEN501 (graph kept alive across iterations).

Usage: python trace501.py RESULT_JSON (-f FILE.py | -m pkg.main --root DIR) [--boundary FILE:LINE_TEXT=>BOUNDARY_TEXT ...]

How it works
------------
* Every line carrying a marker (`# expect: TEN501`, `# ok`, `# either: TEN501`)
  is resolved (AST) to the statement that starts on that line, and to its
  KEEPER expressions: the object(s) the statement stores into
    - `a.b.meth(args)`            -> `a.b` (calls chains like `x.mul_(d).add_(p)` -> `x`)
    - `heapq.heappush(h, ..)`     -> `h`  (receiver is a module -> first argument)
    - `setattr(o, name, v)`       -> `o`
    - `f(args)` (free function)   -> `f` itself (closure cells, defaults, partial
                                     args, bound self, referenced globals) plus every
                                     argument that is a plain name/attribute/subscript
                                     and is NOT itself a tensor
    - `t = v`, `t += v`           -> `t` (subscript targets -> their container)
* The program is executed under sys.settrace.  Right before and right after each
  execution of a site statement the keeper is walked (containers, objects,
  modules, closures, generators, queues ...) and every autograd node reachable
  from the tensors found is collected with its `_sequence_nr()` (a per-thread
  creation counter).  Nodes that became reachable during the statement are
  attributed to that execution ("epoch" = how many times the boundary line has
  run; by default the boundary is the site line itself, i.e. one epoch per
  store).
* After each execution we count how many distinct epochs' attributed nodes the
  keeper still reaches.  KEEPS_GRAPH if that count is ever >= 2 (graphs of
  more than one iteration alive in the keeper), NO_GRAPH if it stays <= 1 for
  a site executed at least 3 times.  `expect` must be KEEPS_GRAPH, `ok` must be
  NO_GRAPH; `either` is only reported.
"""
import ast
import bisect
import builtins
import collections
import functools
import io
import json
import os
import re
import runpy
import sys
import types

import torch

MARK_RE = re.compile(r"#\s*(expect: TEN501|ok|either: TEN501)\s*$")
KIND = {"expect: TEN501": "expect", "ok": "ok", "either: TEN501": "either"}

# helper used by mutants (wrap a value so that it is detached)
def _det(v):
    if torch.is_tensor(v):
        return v.detach()
    if isinstance(v, (list, tuple)) and type(v) in (list, tuple):
        return type(v)(_det(x) for x in v)
    if type(v) is dict:
        return {k: _det(x) for k, x in v.items()}
    return v
builtins._det = _det


def find_sites(path):
    src = open(path).read()
    tree = ast.parse(src)
    stmts = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            # smallest statement starting on a line wins
            prev = stmts.get(node.lineno)
            if prev is None or (node.end_lineno - node.lineno) <= (prev.end_lineno - prev.lineno):
                stmts[node.lineno] = node
    sites = {}
    for i, line in enumerate(src.splitlines(), 1):
        m = MARK_RE.search(line)
        if not m:
            continue
        st = stmts.get(i)
        if st is None:
            raise SystemExit(f"{path}:{i}: marker not on a statement start")
        sites[i] = dict(line=i, end=st.end_lineno, kind=KIND[m.group(1)],
                        keepers=keeper_exprs(st), text=line.strip())
    return sites, src


def _strip_sub(t):
    while isinstance(t, ast.Subscript):
        t = t.value
    return t


def _has_call(e):
    return any(isinstance(n, (ast.Call, ast.Await, ast.Yield, ast.NamedExpr)) for n in ast.walk(e))


def keeper_exprs(st):
    out = []
    if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
        call = st.value
        f = call.func
        if isinstance(f, ast.Attribute):
            base = f.value
            while isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute):
                base = base.func.value
            out.append(("recv", ast.unparse(base)))
            if call.args and not _has_call(call.args[0]):
                out.append(("arg0_if_module", ast.unparse(call.args[0])))
        elif isinstance(f, ast.Name) and f.id == "setattr":
            out.append(("plain", ast.unparse(call.args[0])))
        else:
            out.append(("func", ast.unparse(f)))
            for a in list(call.args) + [k.value for k in call.keywords]:
                if not _has_call(a) and isinstance(a, (ast.Name, ast.Attribute, ast.Subscript)):
                    out.append(("nontensor_arg", ast.unparse(a)))
    elif isinstance(st, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = st.targets if isinstance(st, ast.Assign) else [st.target]
        flat = []
        for t in targets:
            if isinstance(t, (ast.Tuple, ast.List)):
                flat.extend(t.elts)
            else:
                flat.append(t)
        for t in flat:
            if isinstance(t, ast.Starred):
                t = t.value
            out.append(("plain", ast.unparse(_strip_sub(t))))
    else:
        raise SystemExit(f"unsupported statement at line {st.lineno}: {type(st).__name__}")
    return out


# ---------------------------------------------------------------- reachability
SKIP_TYPES = (type, types.ModuleType, types.BuiltinFunctionType, str, bytes, int, float,
              bool, complex, type(None), range, io.IOBase)


def walk_nodes(roots, max_objs=200000):
    """Return set of sequence numbers of autograd nodes reachable from roots."""
    seen = set()
    seqs = set()
    node_seen = set()
    stack = [(r, 0) for r in roots]
    n = 0
    while stack:
        obj, depth = stack.pop()
        if id(obj) in seen or depth > 14:
            continue
        seen.add(id(obj))
        n += 1
        if n > max_objs:
            break
        if torch.is_tensor(obj):
            gf = obj.grad_fn
            if gf is not None:
                _walk_graph(gf, seqs, node_seen)
            continue
        if isinstance(obj, type) and depth <= 1 and not obj.__module__.startswith(("torch", "builtins")):
            # a class used as a keeper (class attributes, classmethod receivers)
            stack.extend((v, depth + 1) for k, v in vars(obj).items() if not k.startswith("__"))
            continue
        if isinstance(obj, SKIP_TYPES):
            continue
        if isinstance(obj, types.FunctionType):
            kids = []
            if obj.__closure__:
                for c in obj.__closure__:
                    try:
                        kids.append(c.cell_contents)
                    except ValueError:
                        pass
            kids.extend(obj.__defaults__ or ())
            kids.extend((obj.__kwdefaults__ or {}).values())
            g = obj.__globals__
            for nm in obj.__code__.co_names:
                if nm in g and not isinstance(g[nm], (types.ModuleType, type, types.FunctionType)):
                    kids.append(g[nm])
            stack.extend((k, depth + 1) for k in kids)
            continue
        if isinstance(obj, types.MethodType):
            stack.append((obj.__self__, depth + 1))
            stack.append((obj.__func__, depth + 1))
            continue
        if isinstance(obj, functools.partial):
            stack.append((obj.func, depth + 1))
            stack.extend((a, depth + 1) for a in obj.args)
            stack.extend((a, depth + 1) for a in obj.keywords.values())
            continue
        if isinstance(obj, types.GeneratorType):
            fr = obj.gi_frame
            if fr is not None:
                stack.extend((v, depth + 1) for v in fr.f_locals.values())
            continue
        if isinstance(obj, dict):
            for k, v in obj.items():
                stack.append((k, depth + 1))
                stack.append((v, depth + 1))
            continue
        if isinstance(obj, (list, tuple, set, frozenset, collections.deque)):
            stack.extend((v, depth + 1) for v in obj)
            continue
        d = getattr(obj, "__dict__", None)
        if isinstance(d, dict):
            stack.append((d, depth + 1))
        slots = getattr(type(obj), "__slots__", ())
        for s in slots if isinstance(slots, (list, tuple)) else (slots,):
            if hasattr(obj, s):
                stack.append((getattr(obj, s), depth + 1))
    return seqs


def _walk_graph(root, seqs, node_seen):
    stack = [root]
    while stack:
        nd = stack.pop()
        if nd is None:
            continue
        key = id(nd)
        # python wrappers may be recreated; use sequence nr + name as identity
        try:
            s = nd._sequence_nr()
        except Exception:
            s = None
        name = nd.name()
        if "AccumulateGrad" in name:
            continue
        ident = (s, name)
        if ident in node_seen:
            continue
        node_seen.add(ident)
        if s is not None:
            seqs.add(s)
        for nxt, _ in nd.next_functions:
            if nxt is not None:
                stack.append(nxt)


# ---------------------------------------------------------------- tracing
class Tracer:
    def __init__(self, files_sites, boundaries):
        self.files = files_sites          # abs path -> {line: site}
        self.boundaries = boundaries      # (abs path, line) of site -> boundary line
        self.bcount = collections.Counter()   # (path, boundary line) -> executions
        self.pending = {}                 # frame id -> (path, site, before_set, epoch)
        self.attr = {}                    # (path, line) -> {seq: epoch}
        self.result = {}
        for p, ss in files_sites.items():
            for ln, s in ss.items():
                self.result[(p, ln)] = dict(execs=0, max_epochs=0, evals_failed=0, nodes_stored=0)
        self.blines = collections.defaultdict(set)
        for p, ss in files_sites.items():
            for ln in ss:
                self.blines[p].add(boundaries.get((p, ln), ln))

    def keeper_values(self, frame, site):
        vals = []
        ok = True
        for kind, expr in site["keepers"]:
            try:
                v = eval(expr, frame.f_globals, frame.f_locals)
            except Exception:
                ok = False
                continue
            if kind == "arg0_if_module":
                continue  # resolved below
            if kind == "recv" and isinstance(v, types.ModuleType):
                # module function: keeper is first argument
                for k2, e2 in site["keepers"]:
                    if k2 == "arg0_if_module":
                        try:
                            vals.append(eval(e2, frame.f_globals, frame.f_locals))
                        except Exception:
                            ok = False
                continue
            if kind == "nontensor_arg" and torch.is_tensor(v):
                continue
            vals.append(v)
        return vals, ok

    def global_trace(self, frame, event, arg):
        if event == "call" and frame.f_code.co_filename in self.files:
            return self.local_trace
        return None

    def _finish(self, frame):
        p, site, before, epoch = self.pending.pop(id(frame))
        vals, ok = self.keeper_values(frame, site)
        after = walk_nodes(vals)
        key = (p, site["line"])
        r = self.result[key]
        amap = self.attr.setdefault(key, {})
        new = after - before
        for s in new:
            amap.setdefault(s, epoch)
        r["nodes_stored"] += len(new)
        epochs = {amap[s] for s in after if s in amap}
        r["max_epochs"] = max(r["max_epochs"], len(epochs))

    def local_trace(self, frame, event, arg):
        p = frame.f_code.co_filename
        fid = id(frame)
        ln = frame.f_lineno
        if fid in self.pending:
            site = self.pending[fid][1]
            if event == "return" or (event == "line" and not (site["line"] <= ln <= site["end"])):
                self._finish(frame)
            else:
                return self.local_trace      # still inside the site statement
        if event != "line":
            return self.local_trace
        if ln in self.blines.get(p, ()):
            self.bcount[(p, ln)] += 1
        sites = self.files[p]
        if ln in sites:
            site = sites[ln]
            key = (p, ln)
            epoch = self.bcount[(p, self.boundaries.get(key, ln))]
            vals, ok = self.keeper_values(frame, site)
            before = walk_nodes(vals)
            self.result[key]["execs"] += 1
            self.pending[fid] = (p, site, before, epoch)
        return self.local_trace


def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("-f")
    ap.add_argument("-m")
    ap.add_argument("--root")
    ap.add_argument("--boundary", action="append", default=[])
    a = ap.parse_args()
    files = {}
    if a.f:
        target = os.path.abspath(a.f)
        files[target] = find_sites(target)[0]
    else:
        pkgdir = os.path.join(a.root, a.m.split(".")[0])
        for fn in sorted(os.listdir(pkgdir)):
            if fn.endswith(".py"):
                fp = os.path.abspath(os.path.join(pkgdir, fn))
                s = find_sites(fp)[0]
                files[fp] = s
    # boundaries: "file.py:SITE_SUBSTRING=>BOUNDARY_SUBSTRING"
    bounds = {}
    for spec in a.boundary:
        fpart, rest = spec.split(":", 1)
        site_txt, b_txt = rest.split("=>", 1)
        for fp, ss in files.items():
            if os.path.basename(fp) != fpart:
                continue
            lines = open(fp).read().splitlines()
            bl = [i for i, l in enumerate(lines, 1) if b_txt in l]
            assert len(bl) == 1, (spec, bl)
            hit = False
            for ln, s in ss.items():
                if site_txt in lines[ln - 1]:
                    bounds[(fp, ln)] = bl[0]
                    hit = True
            assert hit, spec
    tr = Tracer(files, bounds)
    torch.manual_seed(0)
    sys.settrace(tr.global_trace)
    rc = 0
    try:
        if a.f:
            sys.argv = [a.f]
            runpy.run_path(os.path.abspath(a.f), run_name="__main__")
        else:
            sys.path.insert(0, a.root)
            runpy.run_module(a.m, run_name="__main__", alter_sys=True)
    except SystemExit as e:
        rc = e.code or 0
    except Exception as e:  # recorded; verdicts gathered so far are still reported
        rc = 1
        sys.settrace(None)
        print("PROGRAM RAISED:", repr(e), file=sys.stderr)
    finally:
        sys.settrace(None)
    res = []
    for (p, ln), r in sorted(tr.result.items()):
        s = files[p][ln]
        if r["max_epochs"] >= 2:
            verdict = "KEEPS_GRAPH"
        elif r["execs"] >= 3:
            verdict = "NO_GRAPH"
        else:
            verdict = "NOT_EXERCISED"
        want = {"expect": "KEEPS_GRAPH", "ok": "NO_GRAPH"}.get(s["kind"])
        res.append(dict(file=os.path.relpath(p), line=ln, kind=s["kind"], verdict=verdict,
                        agree=(want is None or want == verdict), **r, text=s["text"]))
    json.dump(dict(rc=rc, sites=res, ran_to_end=(rc == 0)), open(a.out, "w"), indent=1)


if __name__ == "__main__":
    main()
