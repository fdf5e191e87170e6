"""How two regions of one base compare (``compare``: OVERLAP, SAME, DISJOINT, UNKNOWN for every
large value of the symbols), one dimension at a time (``compare_dim``); split from
``regions``, whose views, bounds and constants it reads."""
from __future__ import annotations

from typing import Optional

from .regions import DISJOINT, FULL, ONE, OVERLAP, SAME, UNKNOWN, Affine, Bound, Dim, Region


def _compare(a: Bound, b: Bound) -> Optional[int]:
    """The sign of ``a - b`` for large symbols and a longer dimension, or None."""
    if a[0] != b[0]:
        return a[0] - b[0]
    return a[1].plus(b[1], -1).sign()


def _meet(a: Dim, b: Dim) -> Optional[bool]:
    """Do the ranges [a.start, a.stop) and [b.start, b.stop) share a point (large symbols, a
    long dimension)? None: cannot say."""
    x, y = _compare(b.stop, a.start), _compare(a.stop, b.start)  # type: ignore[arg-type]
    if x is None or y is None:
        if (x is not None and x <= 0) or (y is not None and y <= 0):
            return False
        return None
    return x > 0 and y > 0


def compare_dim(a: Dim, b: Dim) -> str:
    """How two dimensions of views of one base compare: SAME, OVERLAP, DISJOINT, UNKNOWN."""
    if (a.stop is None) != (b.stop is None):
        return UNKNOWN  # an index against a slice: the views differ in shape
    if a.stop is None:
        d = _compare(a.start, b.start)
        return UNKNOWN if d is None else SAME if d == 0 else DISJOINT
    if a == b:
        return SAME
    if a.step == b.step and a.start == b.start:
        return SAME  # equal lengths (the write runs) from one start: the same indices
    for d in (a, b):
        if _compare(d.stop, d.start) != 1:  # type: ignore[arg-type]
            return UNKNOWN  # not known to select anything
    meet = _meet(a, b)
    if meet is False:
        return DISJOINT
    if a.step != b.step:  # ``c[:, :8] = c[:, ::2]``: one start shared, then other elements
        return OVERLAP if a.start == b.start and not (a.step.terms or b.step.terms) and \
            _many(a) and _many(b) else _crossing(a, b)
    if a.step != ONE:
        if a.step.terms or a.start[0] != b.start[0]:
            return UNKNOWN
        shift = a.start[1].plus(b.start[1], -1)
        if any(c % a.step.const for _, c in shift.terms):
            return UNKNOWN  # (``x[d::2]`` and ``x[0::2]``: the residue is the parity of d)
        if shift.const % a.step.const:
            return DISJOINT  # ``x[0::2]`` and ``x[1::2]``: other residues
        # (``x[2 * d::2]`` and ``x[0::2]``: starts whole steps apart, for every integer d)
    if a.stop == b.stop:
        return SAME  # equal lengths up to one stop: the same indices
    return OVERLAP if meet else UNKNOWN


def _crossing(a: Dim, b: Dim) -> str:
    """Two constant steps from starts a constant apart (``x[2::2]`` and ``x[1:L]``): DISJOINT
    where no index is in both progressions, OVERLAP where the first one that is lies before
    both stops and each selects two elements or more, else UNKNOWN."""
    d = b.start[1].plus(a.start[1], -1)
    p, q = a.step.const, b.step.const
    if a.step.terms or b.step.terms or a.start[0] != b.start[0] or d.terms or p < 1 or q < 1:
        return UNKNOWN
    first = next((x for x in range(max(0, d.const), max(0, d.const) + p * q)
                  if x % p == 0 and (x - d.const) % q == 0), None)
    if first is None:
        return DISJOINT
    at = (a.start[0], a.start[1].plus(Affine(first)))
    return OVERLAP if _compare(a.stop, at) == 1 and _compare(b.stop, at) == 1 and \
        _many(a) and _many(b) else UNKNOWN  # (one element: no second to read after a write)


def _many(d: Dim) -> bool:
    """Does the slice select two elements or more: its stop past its start by over a step?"""
    return _compare(d.stop, (d.start[0], d.start[1].plus(Affine(d.step.const)))) == 1


def _pairs(a: Region, b: Region) -> Optional[list]:
    if (a.tail is None) != (b.tail is None):
        return None
    if a.tail is None:
        n = max(len(a.lead), len(b.lead))
        return list(zip(a.lead + (FULL,) * (n - len(a.lead)),
                        b.lead + (FULL,) * (n - len(b.lead))))
    if len(a.lead) != len(b.lead) or len(a.tail) != len(b.tail):  # type: ignore[arg-type]
        return None
    return list(zip(a.lead, b.lead)) + list(zip(a.tail, b.tail))  # type: ignore[arg-type]


def compare(a: Region, b: Region) -> str:
    """How two regions of one base compare: OVERLAP (shared elements, not the same view) for
    every large value of the symbols, SAME, DISJOINT, or UNKNOWN."""
    pairs = _pairs(a, b)
    if pairs is None:
        return UNKNOWN
    verdicts = [compare_dim(x, y) for x, y in pairs]
    if DISJOINT in verdicts:
        return DISJOINT
    if UNKNOWN in verdicts:
        return UNKNOWN
    return OVERLAP if OVERLAP in verdicts else SAME
