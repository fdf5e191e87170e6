#!/usr/bin/env python
"""Run-time label checker for the TEN501 test set.

Usage:
    python check_ten501.py PROGRAM.py [--json OUT]
    python check_ten501.py -m pkg_a.main --root /tmp/r21/ten501 [--json OUT]

It runs the program under sys.settrace.  Every line carrying a marker
(`# expect: TEN501`, `# ok`, `# either`) is analysed with `ast` to decide what
"the value handed to the keeper" is, and after the line has run that value is
inspected for tensors with a grad_fn:

* assignment / augmented assignment: the assignment target(s) evaluated after
  the line (for a subscript of a tensor, the whole base tensor);
* `c.append/appendleft/extend/insert/add/put/update/setdefault(...)` on a
  builtin container (list, deque, dict, set, queue.Queue): the elements that
  are new in the container after the line;
* in-place tensor methods (`buf.mul_(m).add_(v)`): the receiver tensor;
* any other call: the call-site arguments, evaluated after the line when they
  are side-effect free expressions; otherwise the callee's parameters captured
  on the callee's 'call' event (Python callees only).  Known builtins get a
  fixed argument index (setattr -> value, heapq.heappush -> item, ...).

Containers, tuples / NamedTuples, dicts and dataclass instances are searched
recursively (depth 5).  Arbitrary objects (trainers, modules) are not.

Keeper-specific retention: for every execution that shows a graph, the
grad_fn of each graph tensor found is tagged with (line, execution number) in
`node.metadata`.  At later graph-showing executions of the same line the
*keeper* is searched: the assignment target (targets mode), the container
(container mode), or the callee object with its receiver, closure cells,
partial arguments, class attributes and module globals (call modes).  Tensors
found there are walked through `next_functions`; the line is "retained" if a
tag from an earlier execution is reachable.  (A no-op hook registered on the
same nodes, held through a weakref, additionally tells whether an earlier node
is alive at all: "FAIL(alive-elsewhere)" means alive but kept by something
other than this line's keeper.)

Pass criteria:
    expect : graph on >= 2 executions, and retained
    ok     : executed >= 1 time, graph on 0 executions
    either : reported only
"""
import argparse
import ast
import builtins
import collections
import dataclasses
import functools
import gc
import io
import json
import os
import queue as queue_mod
import runpy
import sys
import tokenize
import types
import weakref

import torch

MARKERS = {"# expect: TEN501": "expect", "# ok": "ok", "# either": "either"}
COMPREHENSIONS = {"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"}
CONTAINER_METHODS = {"append", "appendleft", "extend", "extendleft", "insert",
                     "add", "put", "put_nowait", "update", "setdefault"}
PURE_METHODS = {"item", "detach", "cpu", "numpy", "tolist", "clone", "float",
                "double", "mean", "sum", "size", "numel", "keys", "values",
                "items", "get", "copy", "abs", "squeeze", "unsqueeze", "view",
                "reshape", "to", "half", "long", "int", "max", "min", "t",
                "norm", "exp", "log", "argmax", "data_ptr", "dim", "pow"}
PURE_FUNCS = {"getattr", "float", "int", "len", "list", "tuple", "dict", "str", "round",
              "abs", "min", "max", "sum", "bool", "sorted", "isinstance"}
# builtin keepers: which positional argument is the handed value
BUILTIN_ARG = {"setattr": [2], "heappush": [1], "heappushpop": [1],
               "insort": [1], "insort_right": [1], "insort_left": [1]}


# --------------------------------------------------------------------------
# marker parsing
# --------------------------------------------------------------------------
def read_markers(path):
    marks = {}
    with open(path, "rb") as f:
        toks = list(tokenize.tokenize(f.readline))
    for tok in toks:
        if tok.type == tokenize.COMMENT:
            text = tok.string.rstrip()
            for m, kind in MARKERS.items():
                if text.endswith(m):
                    marks[tok.start[0]] = kind
                    break
    return marks


class LineInfo:
    def __init__(self, path, lineno, kind, stmt, src):
        self.path = path
        self.lineno = lineno
        self.kind = kind
        self.stmt = stmt
        self.src = src
        self.execs = 0
        self.graph_execs = 0
        self.retained = False
        self.sentinels = []          # list of (exec_index, weakref)
        self.errors = []
        self.retention_checks = 0
        self.graph_types = set()
        self.alive_elsewhere = False

    def as_dict(self):
        return dict(path=self.path, line=self.lineno, kind=self.kind,
                    src=self.src.strip(), execs=self.execs,
                    graph_execs=self.graph_execs, retained=self.retained,
                    errors=self.errors[:3], graph_fns=sorted(self.graph_types))


def find_stmt(tree, lineno):
    best = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno == lineno:
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr)):
                if node.end_lineno == lineno:
                    best = node
    return best


DISCOVER = False


def load_file(path, registry):
    marks = read_markers(path)
    if not marks and not DISCOVER:
        return
    src = open(path).read()
    lines = src.splitlines()
    tree = ast.parse(src)
    if DISCOVER:
        # every single-line assignment / call statement becomes an "unmarked" probe
        for node in ast.walk(tree):
            if (isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr))
                    and node.lineno == node.end_lineno and node.lineno not in marks):
                if isinstance(node, ast.Expr) and not isinstance(node.value, ast.Call):
                    continue
                info = LineInfo(path, node.lineno, "unmarked", node, lines[node.lineno - 1])
                registry[(os.path.realpath(path), node.lineno)] = info
    for ln, kind in marks.items():
        stmt = find_stmt(tree, ln)
        info = LineInfo(path, ln, kind, stmt, lines[ln - 1])
        if stmt is None:
            info.errors.append("no single-line simple statement on marked line")
        registry[(os.path.realpath(path), ln)] = info


# --------------------------------------------------------------------------
# graph search
# --------------------------------------------------------------------------
def graph_tensors(obj, depth=0, seen=None, out=None):
    if out is None:
        out = []
        seen = set()
    if depth > 5 or id(obj) in seen:
        return out
    seen.add(id(obj))
    if isinstance(obj, torch.Tensor):
        if obj.grad_fn is not None:
            out.append(obj)
        return out
    if isinstance(obj, (str, bytes, int, float, bool, type(None))):
        return out
    if isinstance(obj, dict):
        for v in list(obj.values()):
            graph_tensors(v, depth + 1, seen, out)
        return out
    if isinstance(obj, (list, tuple, set, frozenset, collections.deque)):
        for v in list(obj):
            graph_tensors(v, depth + 1, seen, out)
        return out
    if isinstance(obj, queue_mod.Queue):
        graph_tensors(list(obj.queue), depth + 1, seen, out)
        return out
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            graph_tensors(getattr(obj, f.name, None), depth + 1, seen, out)
        return out
    return out


class Sentinel:
    __slots__ = ("__weakref__",)

    def __call__(self, *a):
        return None


# --------------------------------------------------------------------------
# expression helpers
# --------------------------------------------------------------------------
def is_pure(node):
    if isinstance(node, (ast.Name, ast.Constant)):
        return True
    if isinstance(node, ast.Attribute):
        return is_pure(node.value)
    if isinstance(node, ast.Subscript):
        return is_pure(node.value) and is_pure(node.slice)
    if isinstance(node, ast.Slice):
        return all(is_pure(x) for x in (node.lower, node.upper, node.step) if x is not None)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(is_pure(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(is_pure(k) for k in node.keys if k is not None) and all(is_pure(v) for v in node.values)
    if isinstance(node, ast.Starred):
        return is_pure(node.value)
    if isinstance(node, (ast.BinOp,)):
        return is_pure(node.left) and is_pure(node.right)
    if isinstance(node, ast.UnaryOp):
        return is_pure(node.operand)
    if isinstance(node, ast.JoinedStr):
        return all(is_pure(v) for v in node.values)
    if isinstance(node, ast.FormattedValue):
        return is_pure(node.value)
    if isinstance(node, ast.Call):
        ok_func = False
        if isinstance(node.func, ast.Name) and node.func.id in PURE_FUNCS:
            ok_func = True
        elif isinstance(node.func, ast.Attribute) and node.func.attr in PURE_METHODS:
            ok_func = is_pure(node.func.value)
        return ok_func and all(is_pure(a) for a in node.args) and all(is_pure(k.value) for k in node.keywords)
    return False


class _ToLoad(ast.NodeTransformer):
    def generic_visit(self, node):
        node = super().generic_visit(node)
        if hasattr(node, "ctx"):
            node.ctx = ast.Load()
        return node


_CODE_CACHE = {}


def ev(node, frame):
    code = _CODE_CACHE.get(id(node))
    if code is None:
        import copy
        body = _ToLoad().visit(copy.deepcopy(node))
        expr = ast.fix_missing_locations(ast.Expression(body=body))
        code = compile(expr, "<probe>", "eval")
        _CODE_CACHE[id(node)] = code
    return eval(code, frame.f_globals, frame.f_locals)


def eval_target(node, frame):
    """value stored in an assignment target, after the assignment"""
    if isinstance(node, ast.Subscript):
        base = ev(node.value, frame)
        if isinstance(base, torch.Tensor):
            return base
        return base[ev(node.slice, frame)]
    return ev(node, frame)


def flatten_targets(t):
    if isinstance(t, (ast.Tuple, ast.List)):
        out = []
        for e in t.elts:
            out.extend(flatten_targets(e))
        return out
    if isinstance(t, ast.Starred):
        return flatten_targets(t.value)
    return [t]


def code_of(obj):
    """(code object, number of leading params to skip, partial-bound kw names)"""
    skip_kw = set()
    skip = 0
    while isinstance(obj, functools.partial):
        skip += len(obj.args)
        skip_kw |= set(obj.keywords)
        obj = obj.func
    if isinstance(obj, types.MethodType):
        return getattr(obj.__func__, "__code__", None), skip + 1, skip_kw
    if isinstance(obj, types.FunctionType):
        return obj.__code__, skip, skip_kw
    if isinstance(obj, type):
        init = obj.__init__
        return getattr(init, "__code__", None), skip + 1, skip_kw
    if isinstance(obj, torch.nn.Module):
        return type(obj).forward.__code__, skip + 1, skip_kw
    call = getattr(type(obj), "__call__", None)
    if isinstance(call, types.FunctionType):
        return call.__code__, skip + 1, skip_kw
    return None, 0, skip_kw


def container_snapshot(c):
    if isinstance(c, dict):
        return collections.Counter((repr(k) if not isinstance(k, torch.Tensor) else id(k), id(v)) for k, v in c.items())
    if isinstance(c, queue_mod.Queue):
        c = c.queue
    return collections.Counter(id(x) for x in c)


def container_new(c, before):
    if isinstance(c, dict):
        after_items = [((repr(k) if not isinstance(k, torch.Tensor) else id(k), id(v)), v) for k, v in c.items()]
    else:
        seq = c.queue if isinstance(c, queue_mod.Queue) else c
        after_items = [(id(x), x) for x in list(seq)]
    remaining = collections.Counter(before)
    new = []
    for key, v in after_items:
        if remaining[key] > 0:
            remaining[key] -= 1
        else:
            new.append(v)
    return new


BUILTIN_CONTAINERS = (list, collections.deque, dict, set, queue_mod.Queue)




# --------------------------------------------------------------------------
# keeper-specific retention: tag the grad_fn of the handed tensors with
# (line, exec) in node.metadata; at a later execution, search the keeper's
# object graph for tensors, walk their autograd graphs and look for the tag
# of an earlier execution.
# --------------------------------------------------------------------------
SKIP_TYPES = (types.ModuleType, type, types.BuiltinFunctionType, str, bytes,
              int, float, bool, type(None), complex)


def keeper_tensors(roots, budget=60000):
    out = []
    seen = set()
    stack = [(r, 0) for r in roots]
    n = 0
    while stack and n < budget:
        obj, d = stack.pop()
        if id(obj) in seen or d > 9:
            continue
        seen.add(id(obj))
        n += 1
        if isinstance(obj, torch.Tensor):
            if obj.grad_fn is not None:
                out.append(obj)
            continue
        if isinstance(obj, SKIP_TYPES):
            continue
        kids = None
        if isinstance(obj, dict):
            kids = list(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset, collections.deque)):
            kids = list(obj)
        elif isinstance(obj, queue_mod.Queue):
            kids = list(obj.queue)
        elif isinstance(obj, functools.partial):
            kids = list(obj.args) + list(obj.keywords.values()) + [obj.func]
        elif isinstance(obj, types.FunctionType):
            kids = [c.cell_contents for c in (obj.__closure__ or ()) if _cell_ok(c)]
            if hasattr(obj, "__wrapped__"):
                kids.append(obj.__wrapped__)
        elif isinstance(obj, types.MethodType):
            kids = [obj.__self__, obj.__func__]
        elif isinstance(obj, types.GeneratorType):
            fr = obj.gi_frame
            kids = list(fr.f_locals.values()) if fr is not None else []
        elif hasattr(obj, "__dict__"):
            try:
                kids = list(vars(obj).values())
            except TypeError:
                kids = []
            if hasattr(type(obj), "__slots__"):
                for sl in getattr(type(obj), "__slots__", ()):
                    if hasattr(obj, sl):
                        kids.append(getattr(obj, sl))
        if kids:
            stack.extend((k, d + 1) for k in kids)
    return out


def _cell_ok(c):
    try:
        c.cell_contents
        return True
    except ValueError:
        return False


def graph_tags(tensors, key, node_budget=200000):
    found = set()
    seen = {}
    stack = [t.grad_fn for t in tensors]
    n = 0
    while stack and n < node_budget:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen[id(node)] = node          # keep wrapper alive -> stable ids
        n += 1
        try:
            md = node.metadata
        except Exception:  # noqa
            md = None
        if md:
            for (k, e) in md.get("ten501", ()):
                if k == key:
                    found.add(e)
        for nxt, _ in node.next_functions:
            if nxt is not None:
                stack.append(nxt)
    return found


def _code_names(code, out=None):
    out = set() if out is None else out
    out.update(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            _code_names(c, out)
    return out


def func_roots(fobj):
    """Objects that a call to `fobj` can store into: the callee itself (closure
    cells, partial args), its receiver and the receiver's class attributes, and
    the module globals that the callee's code names."""
    roots = [fobj]
    g = None
    f = fobj
    code = None
    while isinstance(f, functools.partial):
        f = f.func
    if isinstance(f, types.MethodType):
        roots.append(f.__self__)
        owner_cls = f.__self__ if isinstance(f.__self__, type) else type(f.__self__)
        roots.extend(v for v in vars(owner_cls).values()
                     if not isinstance(v, (types.FunctionType, property, staticmethod, classmethod)))
        g = getattr(f.__func__, "__globals__", None)
        code = getattr(f.__func__, "__code__", None)
    elif isinstance(f, types.FunctionType):
        g = f.__globals__
        code = f.__code__
    elif isinstance(f, types.BuiltinMethodType) and not isinstance(getattr(f, "__self__", None), types.ModuleType):
        roots.append(f.__self__)
    elif not isinstance(f, type) and hasattr(f, "__dict__"):
        roots.extend(v for v in vars(type(f)).values()
                     if not isinstance(v, (types.FunctionType, property, staticmethod, classmethod)))
        call = getattr(type(f), "__call__", None)
        g = getattr(call, "__globals__", None)
        code = getattr(call, "__code__", None)
    if g and code is not None:
        for name in _code_names(code):
            v = g.get(name)
            if v is not None and not isinstance(v, (types.ModuleType, type, types.FunctionType,
                                                     types.BuiltinFunctionType)):
                roots.append(v)
    return roots

# --------------------------------------------------------------------------
# tracer
# --------------------------------------------------------------------------
class Pending:
    __slots__ = ("info", "mode", "data", "captured", "code", "skip", "skip_kw", "keeper")

    def __init__(self, info):
        self.info = info
        self.mode = None
        self.data = None
        self.captured = None
        self.code = None
        self.skip = 0
        self.skip_kw = set()
        self.keeper = None


class Tracer:
    def __init__(self, registry):
        self.registry = registry
        self.files = {p for (p, _) in registry}
        self.pending = {}
        self.armed = {}          # code -> Pending
        self.real = {}

    def realpath(self, fn):
        r = self.real.get(fn)
        if r is None:
            r = os.path.realpath(fn)
            self.real[fn] = r
        return r

    # global trace
    def gtrace(self, frame, event, arg):
        if event != "call":
            return None
        code = frame.f_code
        if self.armed:
            p = self.armed.get(code)
            if p is not None and p.captured is None:
                self.capture(p, frame)
        if code.co_name in COMPREHENSIONS:
            return None
        if self.realpath(code.co_filename) in self.files:
            return self.ltrace
        return None

    def capture(self, p, frame):
        code = frame.f_code
        loc = frame.f_locals
        npos = code.co_argcount
        nkw = code.co_kwonlyargcount
        names = code.co_varnames
        flags = code.co_flags
        vals = []
        skip = p.skip
        for i in range(npos):
            if i < skip or names[i] in p.skip_kw:
                continue
            vals.append(loc.get(names[i]))
        for nm in names[npos:npos + nkw]:
            if nm not in p.skip_kw:
                vals.append(loc.get(nm))
        idx = npos + nkw
        if flags & 0x04:
            star = loc.get(names[idx], ())
            rest = max(0, skip - npos)
            vals.extend(list(star)[rest:])
            idx += 1
        if flags & 0x08:
            kw = loc.get(names[idx], {}) or {}
            vals.extend(v for k, v in kw.items() if k not in p.skip_kw)
        p.captured = vals
        self.armed.pop(code, None)

    def ltrace(self, frame, event, arg):
        if event == "line":
            p = self.pending.pop(frame, None)
            if p is not None:
                self.post(frame, p)
            info = self.registry.get((self.realpath(frame.f_code.co_filename), frame.f_lineno))
            if info is not None and info.stmt is not None:
                self.pre(frame, info)
        elif event == "return":
            p = self.pending.pop(frame, None)
            if p is not None:
                self.post(frame, p)
        return self.ltrace

    def pre(self, frame, info):
        p = Pending(info)
        st = info.stmt
        try:
            if isinstance(st, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                value = st.value
                if isinstance(value, ast.Lambda):
                    return  # definition of a lambda, not a keeping event
                targets = []
                for t in (st.targets if isinstance(st, ast.Assign) else [st.target]):
                    targets.extend(flatten_targets(t))
                p.mode = "targets"
                p.data = targets
            elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
                call = st.value
                func = call.func
                if isinstance(func, ast.Attribute) and func.attr.endswith("_") and not func.attr.startswith("_"):
                    root = func.value
                    while (isinstance(root, ast.Call) and isinstance(root.func, ast.Attribute)
                           and root.func.attr.endswith("_")):
                        root = root.func.value
                    if is_pure(root):
                        recv = ev(root, frame)
                        if isinstance(recv, torch.Tensor):
                            p.mode = "targets"
                            p.data = [root]
                            self.pending[frame] = p
                            return
                if isinstance(func, ast.Attribute) and func.attr in CONTAINER_METHODS and is_pure(func.value):
                    recv = ev(func.value, frame)
                    if isinstance(recv, BUILTIN_CONTAINERS):
                        p.mode = "container"
                        p.data = (recv, container_snapshot(recv))
                        self.pending[frame] = p
                        return
                if not is_pure(func):
                    raise RuntimeError("callee expression is not side-effect free")
                fobj = ev(func, frame)
                p.keeper = fobj
                fname = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if fname in BUILTIN_ARG and not isinstance(fobj, (types.FunctionType, types.MethodType)):
                    idxs = BUILTIN_ARG[fname]
                    p.mode = "exprs"
                    p.data = [call.args[i] for i in idxs]
                    # the container / object argument is the keeper
                    if fname == "setattr":
                        # the attribute that was set is the keeper
                        p.keeper = ("exprs", [ast.Call(func=ast.Name(id="getattr", ctx=ast.Load()),
                                                       args=[call.args[0], call.args[1]], keywords=[])])
                    else:
                        p.keeper = ("exprs", [call.args[0]])
                    if not all(is_pure(a) for a in p.data):
                        raise RuntimeError("builtin keeper with impure argument")
                else:
                    args = list(call.args) + [k.value for k in call.keywords]
                    code, skip, skip_kw = code_of(fobj)
                    if code is not None:
                        # Python callee: capture the very objects it receives
                        p.mode = "capture"
                        p.code = code
                        p.skip = skip
                        p.skip_kw = skip_kw
                        self.armed[code] = p
                    elif all(is_pure(a) for a in args):
                        p.mode = "exprs"
                        p.data = args
                    else:
                        raise RuntimeError("impure args to a non-Python callee")
            else:
                raise RuntimeError("unsupported statement type %s" % type(st).__name__)
        except Exception as e:  # noqa
            info.errors.append("pre: %r" % (e,))
            return
        self.pending[frame] = p

    def post(self, frame, p):
        info = p.info
        try:
            if p.mode == "targets":
                vals = [eval_target(t, frame) for t in p.data]
            elif p.mode == "container":
                c, before = p.data
                vals = container_new(c, before)
            elif p.mode == "exprs":
                vals = []
                for a in p.data:
                    if isinstance(a, ast.Starred):
                        vals.append(list(ev(a.value, frame)))
                    else:
                        vals.append(ev(a, frame))
            elif p.mode == "capture":
                self.armed.pop(p.code, None)
                if p.captured is None:
                    raise RuntimeError("callee call was not observed")
                vals = p.captured
            else:
                return
        except Exception as e:  # noqa
            info.errors.append("post: %r" % (e,))
            return
        info.execs += 1
        gts = graph_tensors(vals)
        if not gts:
            return
        info.graph_execs += 1
        for t in gts[:4]:
            info.graph_types.add(type(t.grad_fn).__name__)
        k = info.graph_execs
        key = (info.path, info.lineno)
        if info.kind != "ok" and k <= 40:
            for t in gts[:4]:
                try:
                    md = t.grad_fn.metadata
                    md.setdefault("ten501", set()).add((key, k))
                except Exception as e:  # noqa
                    info.errors.append("tag: %r" % (e,))
                if len(info.sentinels) < 80:
                    s_ = Sentinel()
                    t.grad_fn.register_hook(s_)
                    info.sentinels.append((k, weakref.ref(s_)))
        if info.kind != "ok" and k >= 2 and not info.retained and info.retention_checks < 8:
            info.retention_checks += 1
            if p.mode in ("targets",):
                # item assignment: the keeper is the container being assigned into
                roots = [ev(t.value, frame) if isinstance(t, ast.Subscript) else v
                         for t, v in zip(p.data, vals)]
                # property setters keep the value somewhere inside the owner
                for t in p.data:
                    if isinstance(t, ast.Attribute):
                        owner = ev(t.value, frame)
                        if isinstance(getattr(type(owner), t.attr, None), property):
                            roots.append(owner)
            elif p.mode == "container":
                roots = [p.data[0]]
            elif isinstance(p.keeper, tuple) and p.keeper and p.keeper[0] == "exprs":
                roots = [ev(a, frame) for a in p.keeper[1]]
            else:
                roots = func_roots(p.keeper) if p.keeper is not None else []
            tensors = keeper_tensors(roots)
            tags = graph_tags(tensors, key)
            if any(e < k for e in tags):
                info.retained = True
            if not info.retained:
                info.alive_elsewhere = any(r() is not None for (e, r) in info.sentinels if e < k)

    def finish(self):
        pass


def verdict(info):
    if info.errors:
        return "ERROR"
    if info.kind == "expect":
        if info.graph_execs >= 2 and info.retained:
            return "PASS"
        return "FAIL" + ("(alive-elsewhere)" if info.alive_elsewhere else "")
    if info.kind == "ok":
        return "PASS" if info.execs >= 1 and info.graph_execs == 0 else "FAIL"
    if info.kind == "unmarked":
        return "KEEPS" if info.graph_execs >= 2 and info.retained else "quiet"
    return "INFO"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("target")
    ap.add_argument("-m", dest="module", action="store_true")
    ap.add_argument("--root", default=None)
    ap.add_argument("--json", default=None)
    ap.add_argument("--discover", action="store_true",
                    help="also probe every unmarked assignment/call line; report those that keep a graph")
    args = ap.parse_args()
    global DISCOVER
    DISCOVER = args.discover

    registry = {}
    if args.module:
        root = os.path.realpath(args.root or os.getcwd())
        pkg = args.target.split(".")[0]
        pkgdir = os.path.join(root, pkg)
        for dp, _, fns in os.walk(pkgdir):
            for fn in sorted(fns):
                if fn.endswith(".py"):
                    load_file(os.path.join(dp, fn), registry)
        sys.path.insert(0, root)
        os.chdir(root)
    else:
        path = os.path.realpath(args.target)
        load_file(path, registry)
        sys.path.insert(0, os.path.dirname(path))
        os.chdir(os.path.dirname(path))

    tracer = Tracer(registry)
    old_argv = sys.argv
    sys.argv = [args.target]
    out = io.StringIO()
    rc = 0
    sys.settrace(tracer.gtrace)
    try:
        if args.module:
            g = runpy.run_module(args.target, run_name="__main__", alter_sys=True)
        else:
            g = runpy.run_path(path, run_name="__main__")
    except SystemExit as e:
        rc = e.code or 0
    except BaseException as e:  # noqa
        sys.settrace(None)
        import traceback
        traceback.print_exc()
        rc = 1
    finally:
        sys.settrace(None)
    tracer.finish()
    sys.argv = old_argv

    rows = sorted(registry.values(), key=lambda i: (i.path, i.lineno))
    nfail = 0
    print("\n==== TEN501 label check: %s (program rc=%s)" % (args.target, rc))
    for info in rows:
        v = verdict(info)
        if v == "quiet" or (info.kind == "unmarked" and info.errors):
            continue
        if v.startswith("FAIL") or v == "ERROR":
            nfail += 1
        print("%-5s %-6s %s:%d execs=%d graph=%d retained=%s %s%s" % (
            v, info.kind, os.path.basename(info.path), info.lineno, info.execs,
            info.graph_execs, info.retained, info.src.strip()[:70],
            ("  ERR:" + "; ".join(info.errors[:2])) if info.errors else ""))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(target=args.target, rc=rc,
                           lines=[dict(i.as_dict(), verdict=verdict(i)) for i in rows]), f, indent=1)
    if rc != 0:
        nfail += 1
    print("==== %d problem(s)" % nfail)
    sys.exit(1 if nfail else 0)


if __name__ == "__main__":
    main()
