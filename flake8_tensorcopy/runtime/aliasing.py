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

#: storages larger than this (elements) are not marked: the write is not reported
_MAX_MARK = 1 << 26


def _basic(index) -> bool:
    """Is ``index`` a basic index (ints, slices, ``...``, ``None``)? Advanced ones copy."""
    if type(index) is tuple:
        return all(_basic(i) for i in index)
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
        if not _basic(args[1]):
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
