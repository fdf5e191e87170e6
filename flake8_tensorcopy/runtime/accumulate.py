"""TEN501 at run time: a tensor that ``backward()`` was called on, added in place into an
accumulator that keeps its graph, at least twice into the same accumulator (imports torch).

The one shape that is sound and cheap to see from torch calls: ``total += loss`` (or
``total.add_(loss)``) written by the user's code, with grad mode on, where ``loss`` is a tensor
whose ``backward()`` already ran (the watcher keeps a weak reference to each root: the mode sees
every ``Tensor.backward`` and ``torch.autograd.backward`` call; the hooks see ``t.backward`` read
from a tensor, by any caller, and leave the call itself to the original) and
``total`` has a ``grad_fn``: its graph holds the graph of an earlier iteration, and now of this
one. It is reported from the second such write into the same accumulator on (the first may be
the only one). ``total = total + loss`` and ``losses.append(loss)`` are Python's own operations
on new objects or on a list, which no torch hook sees; an accumulator that is itself
differentiated later (``acc += loss_i`` without a ``backward()`` on ``loss_i``) is not reported.
"""
from __future__ import annotations

import weakref
from typing import Dict

import torch

#: the in-place additions that accumulate (``x += y`` reaches ``Tensor.__iadd__``)
ADDS = frozenset({"__iadd__", "add_"})
_is_grad_enabled = torch.is_grad_enabled


class Accumulators:
    """The roots ``backward()`` ran on, and the accumulators already seen taking one."""

    def __init__(self) -> None:
        self.roots: Dict[int, weakref.ref] = {}
        self.seen: Dict[int, weakref.ref] = {}

    def backward(self, tensors) -> None:
        """``Tensor.backward(self)`` / ``torch.autograd.backward(tensors)`` is about to run."""
        if isinstance(tensors, torch.Tensor):
            tensors = (tensors,)
        elif not isinstance(tensors, (list, tuple)):
            return
        roots = self.roots
        for t in tensors[:16]:
            if isinstance(t, torch.Tensor):
                roots[id(t)] = weakref.ref(t)
        if len(roots) > 4096:
            _forget_dead(roots)

    def mark(self, t) -> None:
        """The hooks: ``t.backward`` was read from ``t``, to be called."""
        try:
            self.roots[id(t)] = weakref.ref(t)
            if len(self.roots) > 4096:
                _forget_dead(self.roots)
        except TypeError:  # pragma: no cover - a tensor without weak references
            pass

    def grows(self, name: str, args) -> bool:
        """Does this in-place write (made directly by the user's code) add a backpropagated
        tensor into an accumulator that already took one, keeping both graphs?"""
        if name not in ADDS or not self.roots or len(args) < 2:
            return False
        target, value = args[0], args[1]
        ref = self.roots.get(id(value))
        if ref is None or ref() is not value or not isinstance(target, torch.Tensor) \
                or target.grad_fn is None or not _is_grad_enabled():
            return False
        key = id(target)
        old = self.seen.get(key)
        if old is not None and old() is target:
            return True
        self.seen[key] = weakref.ref(target)
        if len(self.seen) > 4096:
            _forget_dead(self.seen)
        return False


def _forget_dead(table: Dict[int, weakref.ref]) -> None:
    for key in [k for k, r in table.items() if r() is None]:
        del table[key]
