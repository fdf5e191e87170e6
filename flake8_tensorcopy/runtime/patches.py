"""The watcher's fast mechanism (``tensorcopy trace --fast``, ``pytest --tensorcopy-fast``):
call-through hooks on exactly what the rules need, instead of a ``TorchFunctionMode`` that
every torch call enters (imports torch).

While the watcher runs:

- ``torch.Tensor`` gets one descriptor per watched method: the ``data`` attribute, ``detach``,
  ``clone``, ``copy_``, ``new_tensor``, ``__setitem__``, every in-place method (``add_``...) and
  in-place operator (``__iadd__``...). Read from the class (``torch.Tensor.add_``, and what
  torch itself reads to build the ``func`` a ``__torch_function__`` receives), a descriptor gives
  the original object, so identity checks, tables keyed by those objects and subclasses'
  ``__torch_function__`` see what they see without the watcher. Read from a tensor (``t.add_``),
  it gives a bound call-through that tells the watcher, then calls the original.
- ``torch.tensor``, ``torch.clone`` and ``torch.empty_like``/``zeros_like``/``ones_like`` are
  module functions: the only way to see them is to replace them in the ``torch`` module (as
  ``torch.save`` already is for TEN402), so ``torch.tensor is X`` for an ``X`` read before the
  run is False during it. What ``__torch_function__`` receives for them is still the original
  (torch passes its own ``torch._C._VariableFunctions`` entry).
- TEN401's "is the ``detach()`` alias read again" needs every torch call: a small
  ``TorchFunctionMode`` that only looks at the arguments is pushed while such a written alias is
  pending, and only when no other mode is active in that thread; it is popped once nothing is
  pending.

Everything is restored exactly at exit (class attributes deleted, module attributes set back).
"""
from __future__ import annotations

import functools
import sys
import threading
import types
from typing import Callable, List

import torch
from torch.overrides import TorchFunctionMode

from .places import hide_frames, key_of

_DATA = torch._C.TensorBase.__dict__["data"]
#: in-place operators (``x += y``); ``__ipow__`` is torch's own Python and calls ``pow_``
INPLACE_OPERATORS = ("__iadd__", "__isub__", "__imul__", "__idiv__", "__itruediv__",
                      "__ifloordiv__", "__imod__", "__iand__", "__ior__", "__ixor__",
                      "__ilshift__", "__irshift__")
MODULE_FUNCTIONS = ("tensor", "clone", "empty_like", "zeros_like", "ones_like")
_is_compiling = torch.compiler.is_compiling
_getframe = sys._getframe

#: True only while dynamo traces (dynamo reads it as the constant True; ``return False`` when
#: called): the first thing every hook and the mode ask, so that what dynamo traces of them
#: reads nothing of the watcher's state and nothing dynamo would guard on. Read anything else
#: first (the watcher's ``enabled``, its tables, ``_is_compiling_flag``) and dynamo guards on
#: it: a compiled function was compiled again on every call (the flag is True while tracing,
#: False when the code runs) or, on torch 2.11, failed to compile at all.
dynamo_compiling = getattr(torch.compiler, "is_dynamo_compiling", _is_compiling)


class _Compiling:
    """For a torch without ``torch.compiler._is_compiling_flag``: ask the function."""

    @property
    def _is_compiling_flag(self) -> bool:
        return _is_compiling()


#: ``compiler._is_compiling_flag``: True while torch.compile compiles (the flag behind
#: ``torch.compiler.is_compiling()``, read without its two calls): read only after
#: ``dynamo_compiling()``, so only outside dynamo's tracing (AOTAutograd's, say)
compiler = torch.compiler if hasattr(torch.compiler, "_is_compiling_flag") else _Compiling()


class _Method:
    """A method of ``torch.Tensor`` while the watcher runs: the original from the class; from a
    tensor, a watched call-through, or the original bound method where no rule can ask about
    the call (torch's own code, an optimizer's ``addcdiv_``, on a tensor no rule tracks: every
    rule asks about a call made by the user's code, or about a tracked tensor)."""

    __slots__ = ("cls_value", "call", "pending", "reads", "tracked", "frames", "internal",
                 "quiet", "classify")

    def __init__(self, cls_value, call, watcher, reads, quiet=None) -> None:
        self.quiet, self.classify = quiet, watcher.frame_class
        self.cls_value = cls_value
        self.call = call
        self.pending, self.reads = watcher.pending, reads
        self.tracked, self.frames, self.internal = watcher.tracked, watcher.frames, \
            watcher.INTERNAL

    def __get__(self, obj, cls=None):
        if obj is None:
            return self.cls_value
        if not self.pending and not self.reads.on and key_of(obj) not in self.tracked:
            code = _getframe(1).f_code
            c = self.frames.get(code)
            if c is None:  # a caller not met yet: classified once
                c = self.classify(code)
            if c == self.internal or (self.quiet is not None and self.quiet(obj)):
                return self.cls_value.__get__(obj, cls)
        return types.MethodType(self.call, obj)


class _Backward:
    """``Tensor.backward`` while the watcher runs: the original from the class and, bound, from a
    tensor, which is marked first as a root ``backward()`` runs on (TEN501; no watcher frame is
    between the program and the call)."""

    __slots__ = ("cls_value", "mark")

    def __init__(self, cls_value, mark) -> None:
        self.cls_value, self.mark = cls_value, mark

    def __get__(self, obj, cls=None):
        if obj is None:
            return self.cls_value
        if not dynamo_compiling():
            self.mark(obj)
        return self.cls_value.__get__(obj, cls)


class _Data:
    """``Tensor.data`` while the watcher runs: the original descriptor from the class."""

    __slots__ = ("get", "set")

    def __init__(self, get, set_) -> None:
        self.get = get
        self.set = set_

    def __get__(self, obj, cls=None):
        if obj is None:
            return _DATA
        return self.get(obj)

    def __set__(self, obj, value) -> None:
        try:
            self.set(obj, value)
        except BaseException as exc:  # the program's traceback, without this frame
            hide_frames(exc)
            raise

    def __delete__(self, obj) -> None:
        try:
            _DATA.__delete__(obj)
        except BaseException as exc:
            hide_frames(exc)
            raise


class Reads(TorchFunctionMode):
    """Looks at the arguments of every torch call while a written ``detach()`` alias is pending
    (TEN401's read-after-write); pushed and popped by the watcher."""

    def __init__(self, check: Callable) -> None:
        super().__init__()
        self.check = check
        self.on = False

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if not dynamo_compiling() and args and not compiler._is_compiling_flag:
            self.check(args)
        try:
            return func(*args, **(kwargs or {}))
        except BaseException as exc:
            hide_frames(exc)
            raise

    def arm(self) -> None:
        if not self.on and torch._C._len_torch_function_stack() == 0:
            torch._C._push_on_torch_function_stack(self)
            self.on = True

    def disarm(self) -> None:
        n = torch._C._len_torch_function_stack()
        if self.on and n and torch._C._get_function_stack_at(n - 1) is self:
            torch._C._pop_torch_function_stack()
            self.on = False


def install(watcher, kind_of: Callable, handle: Callable, reads: Reads,
            settle: Callable) -> List[tuple]:
    """Put the hooks in place; returns the ``(owner, name, original)`` triples to restore
    (``original`` None: delete the attribute). ``kind_of(func, name)`` is the watcher's
    classification, ``handle(kind, func, args, kwargs)`` its one decision path (the mode's
    too), ``settle(args)`` what it does before a watched call while an alias is pending or the
    read mode is on (TEN401's read, popping the read mode when nothing is pending)."""
    saved: List[tuple] = []
    tensor = torch.Tensor
    names = ["detach", "clone", "copy_", "new_tensor", "__setitem__"]
    names += sorted(n for n in dir(tensor) if n.endswith("_") and not n.startswith("_"))
    names += [n for n in INPLACE_OPERATORS if hasattr(tensor, n)]
    names += list(watcher.conversions.METHODS)  # TEN404-TEN406 (``conversions``)
    for name in dict.fromkeys(names):
        cls_value = getattr(tensor, name, None)
        if cls_value is None or not callable(cls_value):
            continue
        kind = kind_of(cls_value, name)
        if not kind:
            continue
        saved.append((tensor, name, tensor.__dict__.get(name)))
        call = _method(watcher, kind, cls_value, handle, reads, settle)
        quiet = watcher.quiet_write(kind, name)
        setattr(tensor, name, _Method(cls_value, call, watcher, reads, quiet))
    # TEN501's roots: ``t.backward`` read from a tensor, by any caller (a library's
    # ``accelerator.backward(loss)`` too), marks ``t``; the call itself is the original's
    saved.append((tensor, "backward", tensor.__dict__.get("backward")))
    tensor.backward = _Backward(tensor.backward, watcher.accumulators.mark)

    pending = watcher.pending
    data_get = kind_of(_DATA.__get__, "__get__")
    data_set = kind_of(_DATA.__set__, "__set__")

    def get(obj):
        if dynamo_compiling() or compiler._is_compiling_flag or not watcher.enabled:
            return _DATA.__get__(obj)
        if pending or reads.on:
            settle((obj,))
        return handle(data_get, _DATA.__get__, (obj,), {})

    def set_(obj, value):
        if dynamo_compiling() or compiler._is_compiling_flag or not watcher.enabled:
            return _DATA.__set__(obj, value)
        if pending or reads.on:
            settle((obj, value))
        handle(data_set, _DATA.__set__, (obj, value), {})

    saved.append((tensor, "data", tensor.__dict__.get("data")))
    tensor.data = _Data(get, set_)

    for name in MODULE_FUNCTIONS + watcher.conversions.FUNCTIONS:
        orig = getattr(torch, name)
        kind = kind_of(orig, name)
        saved.append((torch, name, orig))
        setattr(torch, name, _function(watcher, kind, orig, handle, reads, settle))
    return saved


def _method(watcher, kind: int, orig, handle, reads, settle):
    pending = watcher.pending

    def call(self, *args, **kwargs):
        try:
            if dynamo_compiling() or compiler._is_compiling_flag or not watcher.enabled:
                return orig(self, *args, **kwargs)
            args = (self,) + args
            if pending or reads.on:
                settle(args)
            return handle(kind, orig, args, kwargs)
        except BaseException as exc:  # the program's traceback: no frame of the watcher's
            hide_frames(exc)
            raise
    return call


def _function(watcher, kind: int, orig, handle, reads, settle):
    pending, frames, internal = watcher.pending, watcher.frames, watcher.INTERNAL

    @functools.wraps(orig)
    def call(*args, **kwargs):
        try:
            if dynamo_compiling() or compiler._is_compiling_flag or not watcher.enabled:
                return orig(*args, **kwargs)
            if pending or reads.on:
                settle(args)
            elif frames.get(_getframe(1).f_code) == internal:
                # torch's own call (autograd's `ones_like`): the rules ask about the user's
                return orig(*args, **kwargs)
            return handle(kind, orig, args, kwargs)
        except BaseException as exc:  # the program's traceback: no frame of the watcher's
            hide_frames(exc)
            raise
    return call


# ---- the mode in threads started while it runs (``--mode``) ---------------------------------
class _PopAtThreadEnd:
    """Held in a thread-local slot of a thread the mode was pushed in: freed as the thread ends
    (in that thread), it pops the mode, so that no Python object is left on torch's C++
    thread-local stack, whose destructor would run after the interpreter is gone (an abort at
    exit, "terminate called without an active exception")."""

    __slots__ = ("mode",)

    def __init__(self, mode) -> None:
        self.mode = mode

    def __del__(self) -> None:
        try:
            n = torch._C._len_torch_function_stack()
            if n and torch._C._get_function_stack_at(n - 1) is self.mode:
                torch._C._pop_torch_function_stack()
        except Exception:  # pragma: no cover - never raise at a thread's end
            pass


_THREAD = threading.local()


def thread_start(watcher):
    """A ``threading.setprofile`` hook: push the watcher in each new thread, then step aside."""

    def hook(frame, event, arg):
        sys.setprofile(None)
        if watcher._active and watcher.enabled:
            try:
                torch._C._push_on_torch_function_stack(watcher)
                _THREAD.pop = _PopAtThreadEnd(watcher)
            except Exception as exc:  # pragma: no cover
                watcher._fail(exc)
    return hook
