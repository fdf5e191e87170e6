"""Run-time checker for TEN403 labels.

Each program is executed once in-process under a TorchDispatchMode.  Every aten op that
writes one of its tensor arguments in place (copy_, fill_, add_, index_put_, ...) is
attributed to the innermost stack frame that lies in the program's own files.  For every
other tensor argument that lives in the same storage, the byte address of each destination
element and of each (broadcast) source element is computed from data_ptr / storage_offset
/ strides.  A write is a *partial-overlap hazard* when some source element address is also
a destination address but at a different position (so the result depends on the order in
which elements are written).  Independently, the op is re-run on clone()d arguments (the
clone()-first result) and compared with the real result ("smeared").

expect line  -> at least one hazard event at that line.
ok line      -> line executed (some aten op attributed to it) and no hazard at that line.
Usage: python check_ten403.py ROOT [--json OUT]
"""
import os, sys, json, subprocess, collections

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import discover, labels  # noqa: E402

CHILD = r'''
import sys, os, json, runpy, collections
import torch
from torch.utils._python_dispatch import TorchDispatchMode
files = set(json.loads(os.environ["T403_FILES"]))
events = collections.defaultdict(lambda: {"ops": 0, "writes": 0, "hazard": 0, "smeared": 0, "raised": 0})

def where():
    f = sys._getframe(2)
    while f is not None:
        if os.path.abspath(f.f_code.co_filename) in files:
            return "%s:%d" % (os.path.abspath(f.f_code.co_filename), f.f_lineno)
        f = f.f_back
    return None

def addrs(t, shape=None):
    isz = t.element_size()
    a = torch.full((), t.storage_offset() * isz, dtype=torch.int64)
    for d, (n, s) in enumerate(zip(t.shape, t.stride())):
        v = torch.arange(n, dtype=torch.int64) * (s * isz)
        a = a.unsqueeze(-1) + v if a.dim() else a + v
    a = a.reshape(t.shape)
    if shape is not None and tuple(a.shape) != tuple(shape):
        try:
            a = a.broadcast_to(shape)
        except RuntimeError:
            return a.reshape(-1), False
    return a, True

def hazard(dst, src):
    if dst.numel() == 0 or src.numel() == 0:
        return False
    if dst.untyped_storage().data_ptr() != src.untyped_storage().data_ptr():
        return False
    D, _ = addrs(dst)
    S, ok = addrs(src, dst.shape)
    dset = D.reshape(-1)
    inD = torch.isin(S.reshape(-1), dset)
    if not ok:
        return bool(inD.any())
    diff = S.reshape(-1) != D.reshape(-1)
    return bool((inD & diff).any())

def flat_tensors(x):
    if isinstance(x, torch.Tensor):
        yield x
    elif isinstance(x, (list, tuple)):
        for y in x:
            yield from flat_tensors(y)

class Mode(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        loc = where()
        if loc is None:
            return func(*args, **kwargs)
        ev = events[loc]
        ev["ops"] += 1
        sch = func._schema
        written = []
        for i, a in enumerate(sch.arguments):
            if a.alias_info is not None and a.alias_info.is_write:
                v = args[i] if i < len(args) else kwargs.get(a.name)
                if isinstance(v, torch.Tensor):
                    written.append((i, a.name, v))
        if not written:
            return func(*args, **kwargs)
        ev["writes"] += 1
        haz = False
        for i, name, dst in written:
            others = []
            for j, a in enumerate(args):
                if j != i:
                    others.extend(flat_tensors(a))
            for k, a in kwargs.items():
                if k != name:
                    others.extend(flat_tensors(a))
            for src in others:
                if hazard(dst, src):
                    haz = True
        ref = None
        if haz:
            ev["hazard"] += 1
            def cl(x):
                if isinstance(x, torch.Tensor):
                    return x.clone()
                if isinstance(x, (list, tuple)):
                    return type(x)(cl(y) for y in x)
                return x
            cargs = [cl(a) for a in args]
            ckw = {k: cl(v) for k, v in kwargs.items()}
            try:
                func(*cargs, **ckw)
                ref = [cargs[i] if i < len(cargs) else ckw[name] for i, name, _ in written]
            except Exception:
                ref = None
        try:
            out = func(*args, **kwargs)
        except RuntimeError:
            ev["raised"] += 1
            raise
        if ref is not None:
            for (i, name, dst), r in zip(written, ref):
                if not torch.equal(dst, r):
                    ev["smeared"] += 1
                    break
        return out

rc = 0
with Mode():
    try:
        if os.environ.get("T403_MODULE"):
            sys.path.insert(0, os.getcwd())
            runpy.run_module(os.environ["T403_MODULE"], run_name="__main__", alter_sys=True)
        else:
            p = os.environ["T403_PATH"]
            sys.argv = [p]
            sys.path.insert(0, os.path.dirname(p))
            runpy.run_path(p, run_name="__main__")
    except SystemExit as e:
        rc = e.code or 0
    except BaseException as e:
        import traceback; traceback.print_exc()
        rc = 1
sys.stdout.flush()
with open(os.environ["T403_OUT"], "w") as fh:
    json.dump({"rc": rc, "events": events}, fh)
'''


def run_plain(prog):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    cmd = [sys.executable, "-m", prog["module"]] if prog["kind"] == "pkg" else [sys.executable, prog["path"]]
    r = subprocess.run(cmd, cwd=prog["cwd"], env=env, capture_output=True, text=True, timeout=120)
    return r


def check(root):
    results = []
    for prog in discover(root):
        labs = labels(prog["files"], "TEN403")
        plain = run_plain(prog)
        outp = os.path.join("/tmp/r26/checkers402/work", "ev_%d.json" % os.getpid())
        os.makedirs(os.path.dirname(outp), exist_ok=True)
        env = dict(os.environ, OMP_NUM_THREADS="1", T403_FILES=json.dumps(prog["files"]), T403_OUT=outp,
                   T403_PATH=prog.get("path", ""), T403_MODULE=prog.get("module", "") if prog["kind"] == "pkg" else "")
        r = subprocess.run([sys.executable, "-c", CHILD], cwd=prog["cwd"], env=env, capture_output=True, text=True, timeout=300)
        data = json.load(open(outp))
        ev = data["events"]
        prog_res = {"program": prog["name"], "plain_rc": plain.returncode, "traced_rc": data["rc"], "sites": [], "unlabeled_hazards": []}
        labelled = set()
        for f, ln, kind in labs:
            key = "%s:%d" % (f, ln)
            labelled.add(key)
            e = ev.get(key, {"ops": 0, "writes": 0, "hazard": 0, "smeared": 0, "raised": 0})
            if kind == "expect":
                verdict = "PASS" if e["hazard"] > 0 else "FAIL"
            elif kind == "ok":
                verdict = "PASS" if (e["ops"] > 0 and e["hazard"] == 0) else ("FAIL(not executed)" if e["ops"] == 0 else "FAIL")
            else:
                verdict = "INFO"
            prog_res["sites"].append({"file": os.path.relpath(f, root), "line": ln, "label": kind, "verdict": verdict, **e})
        for key, e in ev.items():
            if e["hazard"] and key not in labelled:
                prog_res["unlabeled_hazards"].append(key)
        results.append(prog_res)
    return results


def main():
    root = sys.argv[1]
    out = sys.argv[sys.argv.index("--json") + 1] if "--json" in sys.argv else None
    results = check(root)
    tot = collections.Counter()
    lines = []
    for pr in results:
        bad = pr["plain_rc"] != 0 or pr["traced_rc"] != 0 or pr["unlabeled_hazards"]
        for s in pr["sites"]:
            tot[(s["label"], s["verdict"])] += 1
            if s["verdict"].startswith("FAIL"):
                bad = True
            lines.append("%-4s %-6s %-28s %-40s hazard=%d smeared=%d writes=%d ops=%d" % (
                s["verdict"][:4], s["label"], s["file"], "line %d" % s["line"], s["hazard"], s["smeared"], s["writes"], s["ops"]))
        lines.append("== %s rc=%d/%d unlabeled_hazards=%s %s" % (pr["program"], pr["plain_rc"], pr["traced_rc"],
                                                               pr["unlabeled_hazards"], "BAD" if bad else "good"))
    print("\n".join(lines))
    summ = " ".join("%s/%s=%d" % (k[0], k[1], v) for k, v in sorted(tot.items()))
    nfail = sum(v for k, v in tot.items() if k[1].startswith("FAIL"))
    nunl = sum(len(pr["unlabeled_hazards"]) for pr in results)
    nrc = sum(1 for pr in results if pr["plain_rc"] or pr["traced_rc"])
    print("SUMMARY", summ, "| failures=%d unlabeled_hazards=%d bad_rc=%d" % (nfail, nunl, nrc))
    if out:
        json.dump(results, open(out, "w"), indent=1)
    sys.exit(1 if (nfail or nunl or nrc) else 0)


if __name__ == "__main__":
    main()
