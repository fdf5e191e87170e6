"""Injected only by check.py (via PYTHONPATH) into the programs it reruns.

_snap(obj)      -> deep, storage-independent copy of obj (the "fix" for a site)
_probe(dst,src) -> report on stderr whether dst and src views partially overlap
"""
import builtins


def _snap(o):
    import copy
    import torch
    if isinstance(o, torch.Tensor):
        with torch.no_grad():
            c = o.detach().clone()
        if isinstance(o, torch.nn.Parameter):
            c = torch.nn.Parameter(c, requires_grad=o.requires_grad)
        return c
    if isinstance(o, dict):
        out = copy.copy(o)
        for k in list(out.keys()):
            out[k] = _snap(o[k])
        return out
    if isinstance(o, list):
        return [_snap(v) for v in o]
    if isinstance(o, tuple):
        vals = [_snap(v) for v in o]
        return type(o)(*vals) if hasattr(o, "_fields") else tuple(vals)
    try:
        import numpy as np
        if isinstance(o, np.ndarray):
            return o.copy()
    except ImportError:
        pass
    return copy.deepcopy(o)


def _elem_addrs(t):
    import torch
    es = t.element_size()
    n = t.untyped_storage().nbytes() // es
    idx = torch.as_strided(torch.arange(n), t.size(), t.stride(), t.storage_offset())
    return idx.reshape(-1) * es


def _probe(dst, src):
    import sys
    import torch
    pairs = list(zip(dst, src)) if isinstance(dst, tuple) else [(dst, src)]
    for d, s in pairs:
        verdict = "none"
        if isinstance(d, torch.Tensor) and isinstance(s, torch.Tensor) and s.numel() and d.numel():
            if d.untyped_storage().data_ptr() == s.untyped_storage().data_ptr():
                s_b = s.expand_as(d) if s.shape != d.shape else s
                da, sa = _elem_addrs(d), _elem_addrs(s_b)
                same_map = torch.equal(da, sa)
                inter = set(da.tolist()) & set(sa.tolist())
                if inter and not same_map:
                    verdict = "partial"
                elif same_map:
                    verdict = "identical"
        print(f"@@PROBE {verdict}", file=sys.stderr)


def _reached():
    import sys
    print("@@REACHED", file=sys.stderr)


builtins._reached = _reached
builtins._snap = _snap
builtins._probe = _probe
