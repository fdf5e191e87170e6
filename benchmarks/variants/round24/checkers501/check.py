#!/usr/bin/env python
"""Run-time verifier for TEN501 labels (autograd graph kept alive across loop iterations).

Usage:
    python check.py [--dir /tmp/r24/ten501] [--out results.txt] [--json results.json] [TARGET ...]

TARGET is a program file (pNN_*.py) or a package directory (run as `python -m pkg.main`).
Without targets every pNN_*.py and every package directory under --dir is checked.
Each target runs in its own subprocess (`check.py --one TARGET`).

Method (per labeled line, i.e. a line ending in `# expect: TEN501`, `# ok` or `# either: TEN501`):

* The program runs under sys.settrace.  Only frames whose code lives under --dir are traced.
* Every `for`/`while` header line event is counted per frame, so each execution of a labeled
  statement gets an ITERATION ID = (frame serial, header line, header count) of the innermost
  loop enclosing the statement -- in its own function or, if it has none, in the nearest
  calling frame under --dir (e.g. a train_step(), forward() or callback called from the loop).
  checkers501/overrides.json may name lines whose innermost loop is a per-step inner loop (a loop
  over loss terms whose sum is reset and back-propagated every step); for those the next loop
  outward is used.
* Before the statement runs, the ACCUMULATOR ROOTS are evaluated in the frame:
    - assignment / augmented-assignment targets (`total`, `self.running`; for `d[k] = v` the
      container `d`),
    - the receiver of every method call in the statement (`meter` in `meter.update(loss)`,
      `ema` in `ema.mul_(d).add_(p)`, `tracker["loss"]`, a generator in `gen.send(v)`),
    - every non-tensor argument given as a name/attribute/subscript (lists, dicts, objects),
    - the state of a called function that is defined under --dir: closure cells (nonlocal),
      globals it names (global totals in helper modules), functools.partial arguments,
      bound-method __self__.
  All tensors reachable from the roots (through lists, tuples, dicts, object __dict__,
  nn.Module attributes, closures, partials, bound methods, generator frames) are snapshotted.
* After the statement has finished (next line event outside its span, or return), the roots are
  evaluated again.  Tensors that are new, or whose grad_fn changed (in-place update), are the
  values this statement stored; every autograd node reachable from them (grad_fn ->
  next_functions, AccumulateGrad leaves excluded) that carries no tag for this line yet is tagged,
  in node.metadata, with the current iteration id.
* KEPT: after the statement, some tensor reachable from the roots reaches an autograd node that
  THIS line tagged in a DIFFERENT (earlier) iteration, i.e. the accumulator still holds a graph
  that was handed over in an earlier iteration.
* `expect` passes iff KEPT was observed at least once; `ok` passes iff KEPT was never observed and
  the line ran in >= 2 iterations; `either` always passes and its verdict is reported.
"""
import argparse
import ast
import functools
import io
import json
import os
import runpy
import subprocess
import sys
import tokenize
import traceback
import types
import collections

HERE = os.path.dirname(os.path.abspath(__file__))
LABELS = {"# expect: TEN501": "expect", "# ok": "ok", "# either: TEN501": "either"}
TAG = "ten501"
CO_GEN = 0x20 | 0x80 | 0x200
# comprehension / lambda frames evaluate part of a labeled statement; the statement itself
# belongs to the enclosing frame
_INNER_CODE = {"<genexpr>", "<listcomp>", "<dictcomp>", "<setcomp>", "<lambda>"}


# ----------------------------------------------------------------------------- static part
def read_labels(path):
    out = {}
    with open(path, "rb") as fh:
        for tok in tokenize.tokenize(fh.readline):
            if tok.type == tokenize.COMMENT:
                txt = tok.string.strip()
                if txt in LABELS:
                    out[tok.start[0]] = LABELS[txt]
                elif "TEN501" in txt or txt.startswith("# ok"):
                    raise SystemExit("%s:%d malformed label %r" % (path, tok.start[0], txt))
    return out


class FileInfo:
    def __init__(self, path):
        self.path = path
        src = open(path).read()
        self.lines = src.splitlines()
        self.tree = ast.parse(src, path)
        self.labels = read_labels(path)
        self.stmt_at = {}        # line -> simple statement starting on it
        self.loops_for_line = {}  # line -> [header lines], innermost last, same function
        for st in self.tree.body:
            self._stmt(st, [])

    def _stmt(self, st, loops):
        end = getattr(st, "end_lineno", st.lineno)
        for ln in range(st.lineno, end + 1):
            self.loops_for_line[ln] = list(loops)  # children overwrite with deeper info
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for s in st.body:
                self._stmt(s, [])
            return
        if isinstance(st, (ast.For, ast.AsyncFor, ast.While)):
            for s in st.body:
                self._stmt(s, loops + [st.lineno])
            for s in st.orelse:
                self._stmt(s, loops)
            return
        compound = False
        for field in ("body", "orelse", "finalbody"):
            sub = getattr(st, field, None)
            if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt):
                compound = True
                for s in sub:
                    self._stmt(s, loops)
        for h in getattr(st, "handlers", []) or []:
            compound = True
            for s in h.body:
                self._stmt(s, loops)
        for c in getattr(st, "cases", []) or []:
            compound = True
            for s in c.body:
                self._stmt(s, loops)
        if not compound:
            self.stmt_at.setdefault(st.lineno, st)


# ----------------------------------------------------------------------------- reachability
def _is_prog_func(obj, progfiles):
    code = getattr(obj, "__code__", None)
    return code is not None and code.co_filename in progfiles


_GLOBALS_CACHE = {}


def global_names(code):
    """Names a code object (and the lambdas/comprehensions inside it) reads or writes as globals."""
    import dis
    names = _GLOBALS_CACHE.get(code)
    if names is None:
        names = set()
        for ins in dis.get_instructions(code):
            if ins.opname in ("LOAD_GLOBAL", "STORE_GLOBAL", "DELETE_GLOBAL"):
                names.add(ins.argval)
        for c in code.co_consts:
            if isinstance(c, types.CodeType):
                names |= global_names(c)
        _GLOBALS_CACHE[code] = names
    return names


def collect_tensors(roots, progfiles, torch, limit=40000):
    """Return {id: tensor} of tensors reachable from roots."""
    found = {}
    seen = set()
    stack = [(r, 0) for r in roots]
    Module = torch.nn.Module
    while stack and len(seen) < limit:
        obj, depth = stack.pop()
        if obj is None or isinstance(obj, (str, bytes, int, float, complex, bool, type,
                                           types.ModuleType, types.FrameType, types.CodeType)):
            continue
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, torch.Tensor):
            found[id(obj)] = obj
            continue
        if depth > 12:
            continue
        d = depth + 1
        kids = []
        if isinstance(obj, (list, tuple, set, frozenset, collections.deque)):
            kids = list(obj)
        elif isinstance(obj, dict):
            kids = list(obj.values())
        elif isinstance(obj, functools.partial):
            kids = [obj.func] + list(obj.args) + list((obj.keywords or {}).values())
        elif isinstance(obj, types.MethodType):
            kids = [obj.__self__, obj.__func__]
        elif isinstance(obj, types.BuiltinMethodType):
            s = getattr(obj, "__self__", None)
            if isinstance(s, torch.Tensor):
                kids = [s]
        elif isinstance(obj, types.FunctionType):
            if _is_prog_func(obj, progfiles):
                if obj.__closure__:
                    for c in obj.__closure__:
                        try:
                            kids.append(c.cell_contents)
                        except ValueError:
                            pass
                g = obj.__globals__
                for n in global_names(obj.__code__):
                    if n in g:
                        kids.append(g[n])
                kids.extend(obj.__defaults__ or ())
        elif isinstance(obj, types.GeneratorType):
            fr = obj.gi_frame
            if fr is not None:
                kids = list(fr.f_locals.values())
        else:
            dct = getattr(obj, "__dict__", None)
            if isinstance(dct, dict):
                kids = list(dct.values())
            for s in getattr(type(obj), "__slots__", ()) or ():
                try:
                    kids.append(getattr(obj, s))
                except Exception:
                    pass
            if isinstance(obj, types.CellType):
                try:
                    kids.append(obj.cell_contents)
                except ValueError:
                    pass
        for k in kids:
            stack.append((k, d))
    return found


def walk_graph(root, visit):
    """DFS over autograd nodes; visit(node) returns True to stop everything."""
    stack = [root]
    seen = set()
    keep = []
    while stack:
        n = stack.pop()
        if n is None or id(n) in seen:
            continue
        seen.add(id(n))
        keep.append(n)
        if n.name().endswith("AccumulateGrad"):
            continue
        if visit(n):
            return True
        for nxt, _ in n.next_functions:
            if nxt is not None:
                stack.append(nxt)
    return False


# ----------------------------------------------------------------------------- tracer
class LabelStat:
    def __init__(self, path, line, kind):
        self.path, self.line, self.kind = path, line, kind
        self.execs = 0
        self.iters = set()
        self.kept = 0
        self.stored_graph = 0   # executions that newly stored a graph-carrying tensor
        self.roots_seen = 0
        self.no_loop = 0
        self.errors = []
        self.first_kept = None


class FrameState:
    __slots__ = ("serial", "counts", "pending", "frame")

    def __init__(self, serial, frame):
        self.serial = serial
        self.counts = collections.Counter()
        self.pending = None
        self.frame = frame


class Tracer:
    def __init__(self, files, overrides, torch):
        self.files = files                  # abspath -> FileInfo
        self.progfiles = set(files)
        self.overrides = overrides          # (path, line) -> skip count
        self.torch = torch
        self.serial = 0
        self.states = {}
        self.stats = {}
        for p, fi in files.items():
            for ln, kind in fi.labels.items():
                self.stats[(p, ln)] = LabelStat(p, ln, kind)
                if ln not in fi.stmt_at:
                    raise SystemExit("%s:%d label not on the first line of a simple statement" % (p, ln))

    # -- frames
    def global_trace(self, frame, event, arg):
        if frame.f_code.co_filename not in self.progfiles:
            return None
        st = self.states.get(id(frame))
        if st is None or st.frame is not frame:
            self.serial += 1
            st = FrameState(self.serial, frame)
            self.states[id(frame)] = st
        return self._local(st)

    def _local(self, st):
        def local(frame, event, arg):
            if event == "line":
                self.on_line(st, frame)
            elif event == "return":
                if st.pending is not None:
                    self.post(st, frame)
                if not (frame.f_code.co_flags & CO_GEN):
                    self.states.pop(id(frame), None)
            return local
        return local

    def on_line(self, st, frame):
        ln = frame.f_lineno
        pend = st.pending
        if pend is not None:
            if pend["lo"] <= ln <= pend["hi"]:
                return
            self.post(st, frame)
        st.counts[ln] += 1
        key = (frame.f_code.co_filename, ln)
        if key in self.stats and frame.f_code.co_name not in _INNER_CODE:
            self.pre(st, frame, key)

    # -- iteration id
    def iteration_id(self, frame, key):
        skip = self.overrides.get(key, 0)
        f = frame
        first = True
        while f is not None:
            fn = f.f_code.co_filename
            if fn in self.progfiles:
                st = self.states.get(id(f))
                fi = self.files[fn]
                loops = fi.loops_for_line.get(f.f_lineno, [])
                for h in reversed(loops):
                    if skip:
                        skip -= 1
                        continue
                    if st is None:
                        return None
                    return (st.serial, h, st.counts[h])
            f = f.f_back
            first = False
        return None

    # -- roots
    def _eval(self, node, frame):
        code = compile(ast.Expression(body=node), "<root>", "eval")
        return eval(code, frame.f_globals, frame.f_locals)

    @staticmethod
    def _has_call(node):
        return any(isinstance(n, ast.Call) for n in ast.walk(node))

    def roots(self, frame, stmt):
        torch = self.torch
        exprs = []
        targets = []
        if isinstance(stmt, ast.Assign):
            targets = list(stmt.targets)
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
            targets = [stmt.target]
        flat = []
        while targets:
            t = targets.pop()
            if isinstance(t, (ast.Tuple, ast.List)):
                targets.extend(t.elts)
            elif isinstance(t, ast.Starred):
                targets.append(t.value)
            else:
                flat.append(t)
        for t in flat:
            if isinstance(t, ast.Subscript):
                exprs.append(("target", t.value))
            else:
                exprs.append(("target", t))
        # only the call that IS the statement (plus its method chain) can hand a value over;
        # calls nested in arguments (loss.item(), d.values(), F.softmax(..)) are not accumulators
        value = getattr(stmt, "value", None)
        calls = []
        while isinstance(value, ast.Call):
            calls.append(value)
            f = value.func
            value = f.value if isinstance(f, ast.Attribute) else None
        for i, node in enumerate(calls):
            f = node.func
            if isinstance(f, ast.Attribute):
                base = f.value
                while isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute):
                    base = base.func.value
                if i == 0:
                    exprs.append(("receiver", base))
                    exprs.append(("callee", f))
            else:
                exprs.append(("callee", f))
            for a in list(node.args) + [k.value for k in node.keywords]:
                if isinstance(a, ast.Starred):
                    a = a.value
                if isinstance(a, (ast.Name, ast.Attribute, ast.Subscript)):
                    exprs.append(("arg", a))
        out = []
        for idx, (role, e) in enumerate(exprs):
            if self._has_call(e):
                continue
            e = ast.fix_missing_locations(_load_copy(e))
            try:
                v = self._eval(e, frame)
            except Exception:
                continue
            if role == "arg" and isinstance(v, torch.Tensor):
                continue  # the handed value itself is not an accumulator
            if role == "callee":
                if isinstance(v, types.FunctionType) and not _is_prog_func(v, self.progfiles):
                    continue
                if isinstance(v, types.BuiltinFunctionType) and not isinstance(
                        getattr(v, "__self__", None), (torch.Tensor,)):
                    # builtin bound to a list/dict: its receiver is already a root
                    continue
                if isinstance(v, type):
                    continue
            if isinstance(v, types.ModuleType):
                continue
            out.append((idx, v))
        return out

    # -- pre / post
    def pre(self, st, frame, key):
        fi = self.files[key[0]]
        stmt = fi.stmt_at[key[1]]
        iid = self.iteration_id(frame, key)
        try:
            snap = {}
            for rk, rv in self.roots(frame, stmt):
                got = collect_tensors([rv], self.progfiles, self.torch)
                snap[rk] = {k: (t, t.grad_fn) for k, t in got.items()}
        except Exception as exc:  # pragma: no cover
            self.stats[key].errors.append("pre: %r" % exc)
            snap = {}
        st.pending = {"key": key, "lo": stmt.lineno, "hi": stmt.end_lineno, "iid": iid,
                      "snap": snap, "stmt": stmt}

    def post(self, st, frame):
        pend, st.pending = st.pending, None
        key, iid, stmt, snap = pend["key"], pend["iid"], pend["stmt"], pend["snap"]
        stat = self.stats[key]
        stat.execs += 1
        if iid is None:
            stat.no_loop += 1
            return
        stat.iters.add(iid)
        try:
            roots = self.roots(frame, stmt)
            if roots:
                stat.roots_seen += 1
            now = {}
            fresh = {}
            for rk, rv in roots:
                got = collect_tensors([rv], self.progfiles, self.torch)
                before = snap.get(rk, {})
                for k, t in got.items():
                    now[k] = t
                    old = before.get(k)
                    if old is None or old[1] is not t.grad_fn:
                        fresh[k] = t
        except Exception as exc:
            stat.errors.append("post: %r" % exc)
            return
        tagkey = "%s:%d" % key
        new_graph = False
        for k, t in fresh.items():
            gf = t.grad_fn
            if gf is None:
                continue
            if True:
                new_graph = True

                def tag(n):
                    md = n.metadata.setdefault(TAG, {})
                    if tagkey not in md:
                        md[tagkey] = iid
                    return False
                walk_graph(gf, tag)
        if new_graph:
            stat.stored_graph += 1
        if stat.kept and stat.kind == "expect":
            return  # verdict settled, avoid quadratic walks over a growing graph

        hit = []

        def check(n):
            md = n.metadata.get(TAG)
            if md is not None and tagkey in md and md[tagkey] != iid:
                hit.append((n.name(), md[tagkey]))
                return True
            return False
        for t in now.values():
            gf = t.grad_fn
            if gf is not None and walk_graph(gf, check):
                break
        if hit:
            stat.kept += 1
            if stat.first_kept is None:
                stat.first_kept = "exec %d iter %s holds %s from iter %s" % (
                    stat.execs, iid, hit[0][0], hit[0][1])
        del snap


def _load_copy(node):
    import copy
    n = copy.deepcopy(node)
    for sub in ast.walk(n):
        if hasattr(sub, "ctx"):
            sub.ctx = ast.Load()
    return n


# ----------------------------------------------------------------------------- drivers
def load_overrides(progdir):
    path = os.path.join(HERE, "overrides.json")
    out = {}
    if not os.path.exists(path):
        return out
    data = json.load(open(path))
    for fname, entries in data.items():
        p = os.path.join(progdir, fname)
        if not os.path.exists(p):
            continue
        lines = open(p).read().splitlines()
        for needle, skip in entries.items():
            hits = [i + 1 for i, l in enumerate(lines) if needle in l]
            if len(hits) != 1:
                raise SystemExit("override %r in %s matches %d lines" % (needle, fname, len(hits)))
            out[(p, hits[0])] = skip
    return out


def run_one(target, progdir):
    progdir = os.path.abspath(progdir)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import torch
    torch.set_num_threads(1)
    target = os.path.abspath(os.path.join(progdir, target) if not os.path.isabs(target) else target)
    if os.path.isdir(target):
        paths = []
        for dp, _, fns in os.walk(target):
            paths += [os.path.join(dp, f) for f in fns if f.endswith(".py")]
    else:
        paths = [target]
    files = {p: FileInfo(p) for p in sorted(paths)}
    tr = Tracer(files, load_overrides(progdir), torch)
    os.chdir(progdir)
    sys.path.insert(0, progdir)
    crashed = None
    sys.settrace(tr.global_trace)
    try:
        if os.path.isdir(target):
            runpy.run_module(os.path.basename(target) + ".main", run_name="__main__", alter_sys=True)
        else:
            sys.argv = [target]
            runpy.run_path(target, run_name="__main__")
    except SystemExit as e:
        if e.code not in (0, None):
            crashed = "SystemExit(%r)" % e.code
    except BaseException:
        crashed = traceback.format_exc()
    finally:
        sys.settrace(None)
    res = []
    for (p, ln), s in sorted(tr.stats.items()):
        observed = "KEPT" if s.kept else "not-kept"
        problem = None
        if s.execs == 0:
            problem = "NOT EXECUTED"
        elif s.no_loop == s.execs:
            problem = "NO ENCLOSING LOOP"
        elif len(s.iters) < 2 and s.kind != "either":
            problem = "RAN IN <2 ITERATIONS"
        elif s.errors:
            problem = "ERRORS " + "; ".join(s.errors[:2])
        if problem is None:
            if s.kind == "expect":
                ok = bool(s.kept)
            elif s.kind == "ok":
                ok = not s.kept
            else:
                ok = True
        else:
            ok = False
        res.append({"file": os.path.relpath(p, progdir), "line": ln, "label": s.kind,
                    "observed": observed, "pass": ok, "problem": problem, "execs": s.execs,
                    "iterations": len(s.iters), "stored_graph": s.stored_graph,
                    "kept_execs": s.kept, "detail": s.first_kept or "",
                    "src": files[p].lines[ln - 1].strip()})
    return {"target": os.path.relpath(target, progdir), "crashed": crashed, "labels": res}


def discover(progdir):
    out = []
    for name in sorted(os.listdir(progdir)):
        full = os.path.join(progdir, name)
        if name.endswith(".py") and name[0] == "p" and name[1:3].isdigit():
            out.append(name)
        elif os.path.isdir(full) and os.path.exists(os.path.join(full, "main.py")):
            out.append(name)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default="/tmp/r24/ten501")
    ap.add_argument("--one")
    ap.add_argument("--out")
    ap.add_argument("--json")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("targets", nargs="*")
    a = ap.parse_args()
    if a.one:
        r = run_one(a.one, a.dir)
        sys.stdout.write("\n@@RESULT@@" + json.dumps(r) + "\n")
        return
    targets = a.targets or discover(a.dir)
    all_res = []
    env = dict(os.environ, OMP_NUM_THREADS="1")
    for t in targets:
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--dir", a.dir, "--one", t],
                           capture_output=True, text=True, env=env, timeout=600)
        marker = p.stdout.rfind("@@RESULT@@")
        if marker < 0:
            all_res.append({"target": t, "crashed": "checker failed rc=%d\n%s" % (p.returncode, p.stderr[-3000:]),
                            "labels": []})
        else:
            all_res.append(json.loads(p.stdout[marker + len("@@RESULT@@"):]))
    lines = []
    tot = collections.Counter()
    fails = 0
    for r in all_res:
        if r["crashed"]:
            fails += 1
            lines.append("CRASH %s\n%s" % (r["target"], r["crashed"]))
        for l in r["labels"]:
            tot[l["label"]] += 1
            tot["pass" if l["pass"] else "FAIL"] += 1
            if not l["pass"]:
                fails += 1
            lines.append("%-4s %-28s %4d %-6s -> %-8s execs=%-3d iters=%-3d stored_graph=%-3d %s | %s%s" % (
                "PASS" if l["pass"] else "FAIL", l["file"], l["line"], l["label"], l["observed"],
                l["execs"], l["iterations"], l["stored_graph"], l["src"][:70], l["detail"],
                (" !! " + l["problem"]) if l["problem"] else ""))
    summary = ("targets=%d labels=%d expect=%d ok=%d either=%d pass=%d fail=%d crashed=%d" % (
        len(all_res), tot["expect"] + tot["ok"] + tot["either"], tot["expect"], tot["ok"],
        tot["either"], tot["pass"], tot["FAIL"], sum(1 for r in all_res if r["crashed"])))
    text = "\n".join(lines + ["", summary]) + "\n"
    if not a.quiet:
        sys.stdout.write(text)
    else:
        sys.stdout.write(summary + "\n")
    if a.out:
        open(a.out, "w").write(text)
    if a.json:
        json.dump(all_res, open(a.json, "w"), indent=1)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
