"""Runtime checks of aliasing between what a write reads and what it writes (imports torch).

TEN403: a write (``x[i] = v``, ``x.copy_(v)``, ``x.add_(v)``, ``x[i] += v``) whose source
shares elements with its destination without being the same view. The watcher calls
``overlapping_write`` before each in-place call; it costs one storage comparison for writes
whose operands live in different storages (nearly all), and a mark over the storage for the
few that share one.
"""
from __future__ import annotations

from typing import Optional

import torch

from .places import hide_frames

_QUIET = torch._C.DisableTorchFunction
#: storages larger than this (elements) are not marked: the write is not reported
_MAX_MARK = 1 << 26


def basic_index(index) -> bool:
    """Is ``index`` a basic index (ints, slices, ``...``, ``None``)? Advanced ones copy."""
    if type(index) is tuple:
        return all(basic_index(i) for i in index)
    return index is None or index is Ellipsis or type(index) in (int, slice, bool)


def _storage(t) -> Optional[int]:
    try:
        return t.untyped_storage().data_ptr()
    except Exception:
        return None


def overlapping_write(name: str, args) -> bool:
    """Does this write's source partly overlap its destination in memory?"""
    if len(args) < 2 or not isinstance(args[0], torch.Tensor):
        return False
    dst = args[0]
    sources = args[2:3] if name == "__setitem__" else args[1:2]
    src = sources[0] if sources else None
    if not isinstance(src, torch.Tensor) or src.layout != torch.strided or \
            dst.layout != torch.strided or src.numel() == 0:
        return False
    ptr = _storage(dst)
    if ptr is None or ptr != _storage(src) or src.dtype.itemsize != dst.dtype.itemsize:
        return False
    if name == "__setitem__":
        if not basic_index(args[1]):
            return False
        dst = dst[args[1]]
        if dst.numel() == 0:
            return False
    if (dst.storage_offset(), dst.size(), dst.stride()) == (src.storage_offset(), src.size(),
                                                             src.stride()):
        return False  # the same view: an element is read and written by the same step
    return _shares_elements(dst, src)


def _extent(t):
    lo = hi = t.storage_offset()
    for size, stride in zip(t.size(), t.stride()):
        if size == 0:
            return None
        if stride > 0:
            hi += (size - 1) * stride
        else:
            lo += (size - 1) * stride
    return lo, hi


def _shares_elements(a, b) -> bool:
    ea, eb = _extent(a), _extent(b)
    if ea is None or eb is None or ea[1] < eb[0] or eb[1] < ea[0]:
        return False
    n = max(ea[1], eb[1]) + 1
    if n > _MAX_MARK:
        return False
    with torch.no_grad():
        mark = torch.zeros(n, dtype=torch.bool, device=a.device)
        mark.as_strided(a.size(), a.stride(), a.storage_offset()).fill_(True)
        return bool(mark.as_strided(b.size(), b.stride(), b.storage_offset()).any())


def shares_storage(a, b) -> bool:
    """Do tensors ``a`` and ``b`` still use the same storage? True where it cannot be told."""
    try:
        return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
    except Exception:  # a tensor without storage (meta, a subclass): assume they do
        return True


def describe(t) -> Optional[dict]:
    """What was observed about a tensor (called with torch functions disabled)."""
    if not isinstance(t, torch.Tensor):
        return None
    fn = t.grad_fn
    return {
        "dtype": str(t.dtype).replace("torch.", ""),
        "device": str(t.device),
        "requires_grad": bool(t.requires_grad),
        "graph": type(fn).__name__ if fn is not None else None,
        "is_leaf": bool(t.is_leaf),
    }


def tensor_in(seq, depth: int = 0):
    for item in seq[:16] if isinstance(seq, list) else tuple(seq)[:16]:
        if isinstance(item, torch.Tensor):
            return item
        if depth < 1 and isinstance(item, (list, tuple)):
            found = tensor_in(item, depth + 1)
            if found is not None:
                return found
    return None


# ---- TEN402: a state dict loaded or saved after the tensors it holds have changed -------------
def snapshot_hooks(record, locate) -> list:
    """Wrap ``Module.state_dict``, ``Module.load_state_dict`` and ``torch.save`` while the
    watcher runs; returns the ``(owner, name, original)`` triples to restore.

    ``Module.state_dict()`` called from the user's code remembers each tensor of the result (a
    weak reference, its version counter, the user's line). A dict handed to ``load_state_dict``
    or ``torch.save`` whose tensors are such a snapshot's, with their version counter moved since
    (an optimizer step, a load, any in-place change), is reported at the line that took the
    snapshot: the snapshot was meant to hold the old values and holds the new ones. Shallow copies
    (``dict(sd)``, ``sd.copy()``, ``{k: v ...}``) keep the same tensors and are seen; a
    comprehension over ``v.detach()`` makes new tensor objects and is not; nor are optimizer
    state dicts. ``record(code, where, observed)`` and ``locate()`` (the user's position of the
    current call, or None) come from the watcher."""
    import functools
    import linecache
    import weakref

    snaps: dict = {}
    module = torch.nn.Module
    orig_sd, orig_load, orig_save = module.state_dict, module.load_state_dict, torch.save

    def remember(out) -> None:
        where = locate()
        if where is None or not hasattr(out, "values"):
            return
        line = linecache.getline(where[0], where[1])
        where = (where[0], where[1], len(line) - len(line.lstrip())) + tuple(where[3:])
        for v in out.values():
            if isinstance(v, torch.Tensor):
                snaps[id(v)] = (weakref.ref(v), v._version, where)
        if len(snaps) > 65536:
            for key in [k for k, e in snaps.items() if e[0]() is None]:
                del snaps[key]

    def stale(obj, depth: int = 0) -> None:
        if depth > 1 or not hasattr(obj, "values") or not snaps:
            return
        sites = {}
        for v in list(obj.values()):
            if isinstance(v, torch.Tensor):
                e = snaps.get(id(v))
                if e is not None and e[0]() is v and v._version != e[1]:
                    sites.setdefault(e[2], v)
            elif hasattr(v, "values"):
                stale(v, depth + 1)
        for where, v in sites.items():
            record("TEN402", where, {"dtype": str(v.dtype).replace("torch.", ""),
                                     "device": str(v.device), "requires_grad": False,
                                     "graph": None, "is_leaf": True})

    @functools.wraps(orig_sd)
    def state_dict(self, *args, **kwargs):
        try:
            out = orig_sd(self, *args, **kwargs)
        except BaseException as exc:  # the program's traceback, without this frame
            hide_frames(exc)
            raise
        if not args and not kwargs:
            try:
                remember(out)
            except Exception:  # never raise into the watched program
                pass
        return out

    @functools.wraps(orig_load)
    def load_state_dict(self, state_dict, *args, **kwargs):
        try:
            stale(state_dict)
        except Exception:
            pass
        try:
            return orig_load(self, state_dict, *args, **kwargs)
        except BaseException as exc:
            hide_frames(exc)
            raise

    @functools.wraps(orig_save)
    def save(obj, *args, **kwargs):
        try:
            stale(obj)
        except Exception:
            pass
        try:
            return orig_save(obj, *args, **kwargs)
        except BaseException as exc:
            hide_frames(exc)
            raise

    module.state_dict = state_dict
    module.load_state_dict = load_state_dict
    torch.save = save
    return [(module, "state_dict", orig_sd), (module, "load_state_dict", orig_load),
            (torch, "save", orig_save)]


# ---- writes no rule can ask about, told from the target alone -------------------------------
_use_count = getattr(torch._C, "_storage_Use_Count", None)


def unshared_write(accumulators, adds: bool):
    """For the hooks: a predicate on an in-place write's target, true when no rule can ask about
    the write whatever its arguments (the target is not tracked: the caller checks that), so
    that the original bound method is called with no watcher frame between it and the program
    (a traceback raised inside it, and the cost, are python's own). It is not, when the target
    is a view or its storage has another user (TEN403 compares the source's memory with it:
    ``x[1:] = x[:-1]``), or when it holds a graph while a ``backward()`` root is alive and the
    write adds (TEN501). None when torch has no storage use count (every write is watched)."""
    if _use_count is None:
        return None
    roots = accumulators.roots

    def quiet(obj) -> bool:
        try:
            with _QUIET():
                if adds and roots and obj.grad_fn is not None:
                    return False
                if obj._base is not None or obj.layout != torch.strided:
                    return False
                # the storage's own Python object holds one count, the tensor one
                return _use_count(obj.untyped_storage()._cdata) <= 2
        except Exception:
            return False
    return quiet
