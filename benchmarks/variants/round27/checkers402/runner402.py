"""Run a program (path or -m module) with builtins.__snapfix__ installed.
__snapfix__(obj) returns a real copy: deepcopy, falling back to a recursive
detach().clone() for containers of non-leaf tensors."""
import builtins, copy, runpy, sys, os
os.environ.setdefault("OMP_NUM_THREADS", "1")
import torch


def _clone_rec(o):
    if isinstance(o, torch.Tensor):
        return o.detach().clone()
    if isinstance(o, dict):
        d = type(o)() if type(o) is not dict else {}
        for k, v in o.items():
            d[k] = _clone_rec(v)
        return d
    if isinstance(o, (list, tuple)):
        seq = [_clone_rec(v) for v in o]
        if hasattr(o, "_fields"):
            return type(o)(*seq)
        return type(o)(seq)
    return copy.deepcopy(o)


def snapfix(obj):
    try:
        return copy.deepcopy(obj)
    except Exception:
        return _clone_rec(obj)


builtins.__snapfix__ = snapfix

if __name__ == "__main__":
    if sys.argv[1] == "-m":
        sys.path.insert(0, sys.argv[2])
        sys.argv = [sys.argv[3]]
        runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
    else:
        path = sys.argv[1]
        sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
        sys.argv = [path]
        runpy.run_path(path, run_name="__main__")
