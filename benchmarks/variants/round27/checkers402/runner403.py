"""Instrumented run for TEN403.  Wraps Tensor.__setitem__ and Tensor.copy_;
for every call made from a file under WATCH_DIR it records
  - hazard: destination and source share storage bytes and the element-wise
    mapping is not the identity (partial / permuted overlap), computed from
    untyped_storage().data_ptr(), storage_offset(), sizes and strides;
  - differs: the result of the real write differs from the clone()-first
    result (source cloned before the write).
usage: OUT=events.json WATCH_DIR=dir python runner403.py (path | -m parent mod)
"""
import json, os, runpy, sys
os.environ.setdefault("OMP_NUM_THREADS", "1")
import torch

WATCH = os.path.abspath(os.environ["WATCH_DIR"])
EVENTS = []
_orig_set = torch.Tensor.__setitem__
_orig_get = torch.Tensor.__getitem__
_orig_copy = torch.Tensor.copy_
_guard = [False]


def _addr(t):
    """int64 tensor (shape of t) with the byte address of every element."""
    idx = torch.full((), t.storage_offset(), dtype=torch.int64)
    for d, (n, s) in enumerate(zip(t.shape, t.stride())):
        shape = [1] * t.dim()
        shape[d] = n
        idx = idx + (torch.arange(n, dtype=torch.int64) * s).view(shape)
    idx = idx.expand(t.shape) if t.dim() else idx
    return t.untyped_storage().data_ptr() + idx * t.element_size()


def _analyze(dest, src):
    if not isinstance(src, torch.Tensor) or src.device != dest.device:
        return False, None
    if dest.untyped_storage().data_ptr() != src.untyped_storage().data_ptr():
        return False, "disjoint-storage"
    try:
        srcb = src.expand(dest.shape)
    except RuntimeError:
        srcb = src
    ad, as_ = _addr(dest), _addr(srcb)
    ed, es = dest.element_size(), src.element_size()
    bd = set((ad.flatten()[:, None] + torch.arange(ed)).flatten().tolist())
    bs = set((as_.flatten()[:, None] + torch.arange(es)).flatten().tolist())
    inter = len(bd & bs)
    identity = (ed == es and ad.shape == as_.shape and bool((ad == as_).all()))
    if inter == 0:
        return False, "disjoint-elements"
    if identity:
        return False, "identical"
    return True, "partial-overlap(%d/%d bytes)" % (inter, len(bd))


def _site():
    f = sys._getframe(2)
    fn = os.path.abspath(f.f_code.co_filename)
    if fn.startswith(WATCH):
        return fn, f.f_lineno
    return None


def _record(site, dest, src, do_write, reget):
    try:
        hazard, why = _analyze(dest, src)
        expected = torch.empty_like(dest)
        _orig_copy(expected, src.detach().clone())
    except Exception as e:  # analysis failed: still perform the write
        do_write()
        EVENTS.append(dict(file=site[0], line=site[1], hazard=False, why="analysis-error %s" % e, differs=None))
        return
    do_write()
    after = reget()
    differs = not torch.equal(after.detach(), expected)
    EVENTS.append(dict(file=site[0], line=site[1], hazard=hazard, why=why, differs=differs,
                       shape=list(dest.shape)))


def setitem(self, idx, value):
    site = None if _guard[0] else _site()
    if site is None or not isinstance(value, torch.Tensor):
        return _orig_set(self, idx, value)
    _guard[0] = True
    try:
        with torch.no_grad():
            dest = _orig_get(self.detach(), idx)
        if dest.untyped_storage().data_ptr() != self.untyped_storage().data_ptr():
            # advanced indexing: destination is not a view, only compare results
            dest_view = None
        else:
            dest_view = dest
        box = {}

        def do_write():
            _guard[0] = False
            try:
                _orig_set(self, idx, value)
            finally:
                _guard[0] = True

        def reget():
            return _orig_get(self.detach(), idx)
        if dest_view is None:
            expected = torch.empty_like(dest)
            _orig_copy(expected, value.detach().clone().expand(dest.shape) if value.dim() else value.detach().clone())
            do_write()
            EVENTS.append(dict(file=site[0], line=site[1], hazard=False, why="advanced-index",
                               differs=not torch.equal(reget(), expected), shape=list(dest.shape)))
        else:
            _record(site, dest_view, value.detach(), do_write, reget)
    finally:
        _guard[0] = False


def copy_(self, src, non_blocking=False):
    site = None if _guard[0] else _site()
    if site is None:
        return _orig_copy(self, src, non_blocking)
    _guard[0] = True
    try:
        def do_write():
            _orig_copy(self, src, non_blocking)
        _record(site, self.detach(), src.detach(), do_write, lambda: self.detach())
    finally:
        _guard[0] = False
    return self


torch.Tensor.__setitem__ = setitem
torch.Tensor.copy_ = copy_

if __name__ == "__main__":
    try:
        if sys.argv[1] == "-m":
            sys.path.insert(0, sys.argv[2])
            sys.argv = [sys.argv[3]]
            runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
        else:
            path = sys.argv[1]
            sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
            sys.argv = [path]
            runpy.run_path(path, run_name="__main__")
    finally:
        json.dump(EVENTS, open(os.environ["OUT"], "w"))
