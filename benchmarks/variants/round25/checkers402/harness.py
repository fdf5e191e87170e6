"""Run-time label checker harness for TEN402 / TEN403 programs.

Every labeled statement is instrumented through the AST (source rewritten with
ast.unparse into a scratch copy of the set); the programs are executed in
forked children of a process that has already imported torch.

TEN402: each labeled statement's stored value V is wrapped as __r25_wrap__(ID, V).
  probe run: records that the site ran, and whether V holds tensors sharing
             storage with a live nn.Module parameter/buffer or optimizer state.
  fix run  : only site ID is fixed (V -> deep clone of every tensor in V);
             stdout compared with the unmodified baseline.
TEN403: each labeled in-place write `DST = SRC` / `DST.copy_(SRC)` becomes
  DST = __r25_src__(ID, k, SRC, lambda: DST) which, before the write, computes
  the exact element sets of DST and SRC (as_strided over the shared storage):
  partial overlap / same region / disjoint / different storage.
  fix run: only site ID has SRC replaced by SRC.clone(); stdout compared.
"""
import ast, copy, gc, json, os, re, shutil, sys, tempfile, time, traceback, builtins, runpy, signal

os.environ.setdefault("OMP_NUM_THREADS", "1")
import torch
torch.set_num_threads(1)
import torch._dynamo, torch.func, torch.fft, torch.nn.functional, io  # noqa: warm lazy imports once, before forking


def _warm():
    m = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2), torch.nn.GRU(2, 2))
    for o in (torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9), torch.optim.Adam(m.parameters()),
              torch.optim.RMSprop(m.parameters())):
        m[0](torch.randn(3, 2)).sum().backward()
        o.step()
        o.state_dict()
    b = io.BytesIO(); torch.save(m.state_dict(), b); b.seek(0); torch.load(b)


_warm()

MARK = re.compile(r"#\s*(expect|either):\s*(TEN40[23])\s*$|#\s*(ok)\s*$")


def rule_of(rel):
    return "TEN402" if "402" in rel.split("/")[0] else "TEN403"


def find_markers(path):
    out = []
    with open(path) as f:
        for i, line in enumerate(f, 1):
            m = MARK.search(line.rstrip("\n"))
            if m:
                kind = m.group(1) or m.group(3)
                out.append((i, kind, m.group(2)))
    return out


def stmt_at(tree, lineno):
    best = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno == lineno:
            if best is None or not hasattr(node, "body"):
                best = node
    return best


def _call(name, args):
    return ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=args, keywords=[])


def _wrap402(sid, expr):
    return _call("__r25_wrap__", [ast.Constant(sid), expr])


def _load(expr):
    e = copy.deepcopy(expr)
    for n in ast.walk(e):
        if hasattr(n, "ctx"):
            n.ctx = ast.Load()
    return e


def _wrap403(sid, k, src, dst):
    lam = ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                        kw_defaults=[], kwarg=None, defaults=[]),
                     body=_load(dst) if dst is not None else ast.Constant(None))
    return _call("__r25_src__", [ast.Constant(sid), ast.Constant(k), src, lam])


def instrument(src_text, sites, rule):
    """sites: list of (lineno, sid). Returns new source text; raises on unsupported site."""
    tree = ast.parse(src_text)
    for lineno, sid in sites:
        st = stmt_at(tree, lineno)
        if st is None:
            raise ValueError(f"no statement starts at line {lineno}")
        if rule == "TEN402":
            if isinstance(st, (ast.Assign, ast.AnnAssign, ast.Return)) and st.value is not None:
                st.value = _wrap402(sid, st.value)
            elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
                c = st.value
                fname = c.func.attr if isinstance(c.func, ast.Attribute) else getattr(c.func, "id", "")
                if fname == "save":
                    c.args[0] = _wrap402(sid, c.args[0])
                elif fname == "setattr":
                    c.args[2] = _wrap402(sid, c.args[2])
                else:
                    c.args = [_wrap402(sid, a) for a in c.args]
                    for kw in c.keywords:
                        kw.value = _wrap402(sid, kw.value)
            elif isinstance(st, ast.Expr) and isinstance(st.value, (ast.Yield,)):
                st.value.value = _wrap402(sid, st.value.value)
            else:
                raise ValueError(f"unsupported TEN402 site at line {lineno}: {type(st).__name__}")
        else:
            if isinstance(st, ast.Assign):
                tgt = st.targets[-1]
                if isinstance(tgt, ast.Tuple) and isinstance(st.value, ast.Tuple):
                    st.value.elts = [_wrap403(sid, k, v, t if isinstance(t, (ast.Subscript, ast.Attribute)) and isinstance(t, ast.Subscript) else None)
                                     for k, (t, v) in enumerate(zip(tgt.elts, st.value.elts))]
                else:
                    st.value = _wrap403(sid, 0, st.value, tgt if isinstance(tgt, ast.Subscript) else None)
            elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Attribute) \
                    and st.value.func.attr == "copy_":
                c = st.value
                c.args[0] = _wrap403(sid, 0, c.args[0], c.func.value)
            else:
                raise ValueError(f"unsupported TEN403 site at line {lineno}: {type(st).__name__}")
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


# ---------------------------------------------------------------- runtime side
def deepclone(v, _memo=None):
    if isinstance(v, torch.Tensor):
        return v.detach().clone()
    if isinstance(v, torch.nn.Module):
        return copy.deepcopy(v)
    if isinstance(v, dict):
        try:
            out = type(v)()
        except Exception:
            out = {}
        for k, x in v.items():
            out[k] = deepclone(x)
        if hasattr(v, "_metadata"):
            out._metadata = v._metadata
        return out
    if isinstance(v, list):
        return [deepclone(x) for x in v]
    if isinstance(v, tuple):
        return type(v)(deepclone(x) for x in v) if not hasattr(v, "_fields") else type(v)(*[deepclone(x) for x in v])
    return v


def tensors_in(v, depth=0):
    if depth > 6:
        return
    if isinstance(v, torch.Tensor):
        yield v
    elif isinstance(v, dict):
        for x in v.values():
            yield from tensors_in(x, depth + 1)
    elif isinstance(v, (list, tuple)):
        for x in v:
            yield from tensors_in(x, depth + 1)
    elif isinstance(v, torch.nn.Module):
        yield from v.parameters()


def live_storages(exclude):
    import warnings
    warnings.simplefilter("ignore")
    ptrs = set()
    for o in gc.get_objects():
        try:
            if isinstance(o, torch.nn.Module) and id(o) not in exclude:
                for t in list(o.parameters(recurse=False)) + list(o.buffers(recurse=False)):
                    ptrs.add(t.untyped_storage().data_ptr())
            elif isinstance(o, torch.optim.Optimizer):
                for st in o.state.values():
                    for t in st.values():
                        if isinstance(t, torch.Tensor) and t.numel() > 1:
                            ptrs.add(t.untyped_storage().data_ptr())
        except Exception:
            pass
    return ptrs


class Runtime:
    def __init__(self, mode, fix_id, log):
        self.mode, self.fix_id, self.log = mode, fix_id, log
        self.rec = {}

    def save(self):
        with open(self.log, "w") as f:
            json.dump(self.rec, f)

    # TEN402
    def wrap(self, sid, v):
        r = self.rec.setdefault(str(sid), {"n": 0, "alias": []})
        r["n"] += 1
        if self.mode == "probe" and len(r["alias"]) < 3:
            ts = list(tensors_in(v))
            mods = {id(v)} if isinstance(v, torch.nn.Module) else set()
            live = live_storages(mods)
            r["alias"].append(any(t.untyped_storage().data_ptr() in live for t in ts) if ts else None)
        if self.mode == "fix" and sid == self.fix_id:
            return deepclone(v)
        return v

    # TEN403
    def src(self, sid, k, s, dst_thunk):
        r = self.rec.setdefault(str(sid), {"n": 0, "obs": []})
        r["n"] += 1
        if self.mode == "probe" and len(r["obs"]) < 50:
            r["obs"].append(overlap(dst_thunk(), s))
        if self.mode == "fix" and sid == self.fix_id and isinstance(s, torch.Tensor):
            return s.clone()
        return s


def _elem_index(t):
    st = t.untyped_storage()
    n = st.nbytes() // t.element_size()
    base = torch.arange(n, dtype=torch.int64)
    return base.as_strided(t.size(), t.stride(), t.storage_offset())


def overlap(d, s):
    if not isinstance(d, torch.Tensor) or not isinstance(s, torch.Tensor):
        return "no-tensor"
    if d.untyped_storage().data_ptr() != s.untyped_storage().data_ptr():
        return "different-storage"
    if d.element_size() != s.element_size():
        return "same-storage-dtype-mismatch"
    di = _elem_index(d)
    si = _elem_index(s)
    common = set(di.flatten().tolist()) & set(si.flatten().tolist())
    if not common:
        return "disjoint"
    try:
        sb = si.expand_as(di) if si.shape != di.shape else si
        if torch.equal(sb, di):
            return "same-region"
    except Exception:
        pass
    return "partial-overlap:%d/%d" % (len(common), di.numel())


# ---------------------------------------------------------------- job control
def run_job(workdir, target, mode, fix_id, timeout=120):
    """fork a child, run target (file path relative to workdir, or -m module) there."""
    out = os.path.join(workdir, f".out_{mode}_{fix_id}.txt")
    log = os.path.join(workdir, f".log_{mode}_{fix_id}.json")
    pid = os.fork()
    if pid == 0:
        try:
            fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            fd2 = os.open(out + ".err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(fd, 1); os.dup2(fd2, 2)
            sys.stdout = open(1, "w", closefd=False); sys.stderr = open(2, "w", closefd=False)
            os.chdir(workdir)
            sys.path.insert(0, workdir)
            rt = Runtime(mode, fix_id, log)
            builtins.__r25_wrap__ = rt.wrap
            builtins.__r25_src__ = rt.src
            rc = 0
            try:
                if target.startswith("-m "):
                    sys.argv = [target[3:]]
                    runpy.run_module(target[3:], run_name="__main__", alter_sys=True)
                else:
                    sys.argv = [target]
                    runpy.run_path(target, run_name="__main__")
            except SystemExit as e:
                rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            except BaseException:
                traceback.print_exc()
                rc = 1
            sys.stdout.flush(); sys.stderr.flush()
            rt.save()
        finally:
            pass
        os._exit(rc if isinstance(rc, int) else 1)
    return pid, out, log


def wait_job(pid, timeout=120):
    t0 = time.time()
    while True:
        p, status = os.waitpid(pid, os.WNOHANG)
        if p:
            return os.waitstatus_to_exitcode(status)
        if time.time() - t0 > timeout:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return 124
        time.sleep(0.02)
