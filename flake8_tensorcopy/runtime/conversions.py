"""TEN404-TEN406 at run time: copies that were not copies (imports torch).

What is seen, and when it is reported (each at the line that bound the name, as the static rule):

- TEN404: a conversion called by the user's code (``.cpu()``, ``.cuda()``, ``.to(...)``,
  ``.float()`` and the other dtype methods, ``.type(dtype)``, ``.contiguous()``,
  ``.requires_grad_()``, ``torch.as_tensor(t)``) returned its receiver itself: there was nothing to convert on that
  device, dtype and layout, and the identity is the fact. Its result is bound to a name (``y =
  x.float()``) while the receiver is bound to another name of the same frame (``x``). Then an
  in-place write through one of those names in that same frame (``y.mul_(255)``, ``y[0] = v``,
  ``y += 1``), then a line of that frame that reads the other name's value (not ``.shape``,
  ``.dtype``, ``len()``...) while it still names the tensor.
- TEN405: the NumPy bridge: ``t = torch.from_numpy(a)``, ``t = torch.as_tensor(a)`` that shares
  ``a``'s memory, ``n = x.numpy()``, ``n = np.asarray(x)``; then an in-place write to the tensor
  in that frame, then a line that reads the array. Writes made by NumPy itself (``a += 1``,
  ``n[0] = v``) are not seen: not reported.
- TEN406: ``dist.all_gather(lst, x)`` that returned with a list holding one tensor more than once
  (``[t] * n``: every rank's tensor went into the same memory); an item assignment ``e[i] = v``
  into an ``expand``/``expand_as``/``broadcast_to`` result whose memory repeats, where the written
  region does not repeat itself (torch writes it silently, into every row). A write through one
  item of a ``[t] * n`` list is not seen (seeing it would cost every in-place write).

"Read afterwards" is observed, not inferred: after the write, that one frame gets line events
(``sys.settrace`` whose global function traces no other frame, chaining a tracer already set in
Python; under a tracer written in C, coverage's, nothing is watched and nothing reported) until a
line reads the other side, the frame returns, the conversion's own line comes round again or
``BUDGET`` lines went by. A site whose watch ended ``MISSES`` times without a read is not
watched again. None of this runs unless the program calls these functions.
"""
from __future__ import annotations

import ast
import dis
import linecache
import sys
import threading
import types
import weakref
from typing import Dict, Optional

import torch

from .aliasing import basic_index, describe
from .places import key_of

try:
    import numpy as np
except ImportError:  # pragma: no cover - torch without numpy
    np = None

#: the tracked-results kind of this module's entries (``Watcher._tracked``)
TRACKED = 4
#: tensor methods watched (the fast mechanism's hooks; the mode sees them anyway)
METHODS = ("cpu", "cuda", "to", "float", "double", "half", "bfloat16", "long", "int", "short",
           "bool", "byte", "char", "cfloat", "cdouble", "type", "contiguous", "requires_grad_",
           "numpy", "__array__", "expand", "expand_as", "broadcast_to")
#: torch module functions the fast mechanism wraps
FUNCTIONS = ("as_tensor", "broadcast_to")
_SAME = frozenset(METHODS[:18] + ("as_tensor",))
_EXPAND = frozenset({"expand", "expand_as", "broadcast_to"})
#: a line watch ends after this many lines of its frame; a site after this many fruitless watches
BUDGET, MISSES = 200, 8
_LOADS = frozenset({"LOAD_FAST", "LOAD_NAME", "LOAD_GLOBAL", "LOAD_DEREF", "LOAD_CLASSDEREF",
                    "LOAD_FAST_CHECK"})
_STORES = frozenset({"STORE_FAST", "STORE_NAME", "STORE_GLOBAL", "STORE_DEREF"})
_SIMPLE = _LOADS | {"LOAD_CONST"}
#: attributes whose read is no read of the values (metadata), or is a write
_NOT_READS = frozenset({"shape", "dtype", "device", "ndim", "size", "dim", "numel", "is_cuda",
                        "layout", "requires_grad", "itemsize", "nbytes", "names", "stride",
                        "is_contiguous", "data_ptr", "fill", "put", "itemset", "resize"})
_NP_WRITES = frozenset({"fill", "put", "itemset", "resize"})
_QUIET = torch._C.DisableTorchFunction
_overlap = torch._debug_has_internal_overlap
_ARRAY = getattr(torch.Tensor.__array__, "__code__", None)


def functions() -> list:
    """The watched callables, for the watcher's table of kinds."""
    found = [getattr(torch.Tensor, n) for n in METHODS if hasattr(torch.Tensor, n)]
    found += [getattr(torch, n) for n in FUNCTIONS + ("from_numpy",)]
    gather = _gather_owner()
    return found + ([gather.all_gather] if gather is not None else [])


def _gather_owner():
    dist = getattr(torch, "distributed", None)
    try:
        return dist if dist is not None and dist.is_available() and \
            hasattr(dist, "all_gather") else None
    except Exception:  # pragma: no cover
        return None


class _Made:
    """What a conversion made: the code it may be reported as, where, and its two sides."""

    __slots__ = ("code", "where", "frame_id", "f_code", "result", "sources", "array", "observed")

    def __init__(self, code, where, frame, result, sources=frozenset(), array=None,
                 observed=None) -> None:
        self.code, self.where, self.result, self.sources = code, where, result, sources
        self.frame_id, self.f_code = key_of(frame), frame.f_code
        self.array, self.observed = array, observed


class _Ref(weakref.ref):
    __slots__ = ("key",)


class Conversions:
    """Called by the watcher: ``made`` after a watched call (its kind is in ``functions()``),
    ``write`` before an in-place write to a tensor this module tracks."""

    METHODS, FUNCTIONS = METHODS, FUNCTIONS  # read by ``patches.install``

    def __init__(self, where, position, record, tracked: dict) -> None:
        self.where, self.position, self.record, self.tracked = where, position, record, tracked
        self.lines = _Lines(record)
        self._code: Dict[object, tuple] = {}

    # ------------------------------------------------------------------ hooks
    def install(self, watcher) -> list:
        """``torch.from_numpy`` and ``torch.distributed.all_gather``, which no
        ``__torch_function__`` sees: wrapped (both mechanisms); the triples to restore."""
        from .patches import compiler, dynamo_compiling

        saved = []
        owners = [(torch, "from_numpy")]
        if _gather_owner() is not None:
            owners.append((_gather_owner(), "all_gather"))
        for owner, name in owners:
            orig = getattr(owner, name)
            kind = watcher.kind_of(orig, name)

            def call(*args, _orig=orig, _kind=kind, **kwargs):
                if dynamo_compiling() or compiler._is_compiling_flag or not watcher.enabled:
                    return _orig(*args, **kwargs)
                return watcher.handle(_kind, _orig, args, kwargs)
            call.__wrapped__ = orig
            call.__name__ = name
            saved.append((owner, name, orig))
            setattr(owner, name, call)
        return saved

    def close(self) -> None:
        self.lines.close()

    # ------------------------------------------------------------------ calls
    def made(self, func, args, kwargs, out) -> None:
        name = getattr(func, "__name__", "")
        if name == "all_gather":
            return self._gathered(args, kwargs)
        src = args[0] if args else kwargs.get("data", kwargs.get("input"))
        is_tensor = isinstance(out, torch.Tensor)
        if name in _EXPAND:
            if not is_tensor or _overlap(out) != 1:
                return
            kind = "TEN406"
        elif is_tensor and out is src and name in _SAME:
            kind = "TEN404"
        elif np is None:
            return
        elif is_tensor and name in ("from_numpy", "as_tensor") and isinstance(src, np.ndarray):
            if not _shares(out, src):
                return
            kind, tensor, array = "TEN405", out, src
        elif name in ("numpy", "__array__") and isinstance(out, np.ndarray) and \
                isinstance(src, torch.Tensor):
            kind, tensor, array = "TEN405", src, out
        else:
            return
        direct, frame = self.where()
        if not direct and name == "__array__":  # ``--mode``: under torch's own ``__array__``
            direct = _called_by(frame, _ARRAY)
        if not direct or frame is None:
            return
        bound = self._store_after(frame)
        if bound is None:
            return
        result, where = bound
        if kind == "TEN406":
            return self._track(out, _Made(kind, where, frame, result))
        if kind == "TEN405":
            return self._track(tensor, _Made(kind, where, frame, result,
                                             array=weakref.ref(array),
                                             observed=describe(tensor)))
        sources = frozenset(n for n, v in _names(frame) if v is src and n != result)
        if sources:
            self._track(src, _Made(kind, where, frame, result, sources,
                                   observed=describe(src)))

    def _track(self, t, made: _Made) -> None:
        key = key_of(t)
        old = self.tracked.get(key)
        if old is not None and old[0]() is t and old[1] != TRACKED:
            return  # tracked for another rule: that rule keeps it
        self.lines.forget(t)
        ref = _Ref(t, self._gone)
        ref.key = key
        self.tracked[key] = (ref, TRACKED, None, made.where, made)

    def _gone(self, ref) -> None:
        entry = self.tracked.get(ref.key)
        if entry is not None and entry[0] is ref:
            del self.tracked[ref.key]

    def write(self, entry, target, func, args, k) -> None:
        """An in-place write (``func``) to ``target``, tracked as ``entry``, about to run."""
        made = entry[4]
        direct, frame = self.where()
        if not direct or frame is None:
            return
        if made.code == "TEN406":
            if getattr(func, "__name__", "") == "__setitem__" and len(args) > 1 and \
                    _silent_repeat(target, args[1]):
                self.record("TEN406", made.where, describe(target))
            return
        if key_of(frame) != made.frame_id or frame.f_code is not made.f_code:
            return
        if made.code == "TEN405":
            return self.lines.watch(frame, _Watch(made, target, None))
        written = _written_name(self.position(frame))
        if written == made.result:
            others = made.sources
        elif written in made.sources:
            others = frozenset({made.result})
        else:
            return  # written through a third name, or one not seen
        self.lines.watch(frame, _Watch(made, target, others))

    def _gathered(self, args, kwargs) -> None:
        lst = args[0] if args else kwargs.get("tensor_list")
        if not isinstance(lst, list) or len(lst) < 2:
            return
        seen = set()
        for t in lst:
            if isinstance(t, torch.Tensor) and key_of(t) in seen:
                break
            seen.add(key_of(t))
        else:
            return
        direct, frame = self.where()
        if not direct or frame is None:
            return
        names = [n for n, v in _names(frame) if v is lst]
        where = self._bound_before(frame, names) if names else None
        self.record("TEN406", where or self.position(frame), describe(t))

    # ------------------------------------------------------------------ code
    def _instructions(self, code) -> tuple:
        got = self._code.get(code)
        if got is None:
            ins = list(dis.get_instructions(code))
            at = {}
            for n, i in enumerate(ins):  # a call's frame may stand on its inline caches
                end = ins[n + 1].offset if n + 1 < len(ins) else i.offset + 2
                at.update(dict.fromkeys(range(i.offset, end, 2), n))
            got = self._code[code] = (ins, at)
        return got

    def _store_after(self, frame):
        """(name, position) of the store right after the call being made, else None."""
        ins, at = self._instructions(frame.f_code)
        n = at.get(frame.f_lasti)
        if n is None or n + 1 >= len(ins) or ins[n + 1].opname not in _STORES:
            return None
        return ins[n + 1].argval, _where(frame, ins[n + 1])

    def _bound_before(self, frame, names):
        """The position of the last store of one of ``names`` before the call being made."""
        ins, at = self._instructions(frame.f_code)
        n = at.get(frame.f_lasti, len(ins))
        for i in reversed(ins[:n]):
            if i.opname in _STORES and i.argval in names:
                return _where(frame, i)
        return None


def _called_by(frame, code) -> bool:
    """Is the call being handled made by ``code`` (torch's ``Tensor.__array__``), called in
    turn straight from ``frame`` (NumPy's C code between them)?"""
    f = sys._getframe(2)
    while f is not None and f.f_code is not code:
        f = f.f_back
    return f is not None and f.f_back is frame


def _where(frame, ins) -> Optional[tuple]:
    p = ins.positions
    if p is None or p.lineno is None:
        return None
    return (frame.f_code.co_filename, p.lineno, p.col_offset or 0, p.end_lineno or p.lineno,
            p.end_col_offset or 0)


def _names(frame):
    loc = frame.f_locals
    return loc.items()


def _lookup(frame, name):
    loc = frame.f_locals
    if name in loc:
        return loc[name]
    return frame.f_globals.get(name)


def _shares(t, a) -> bool:
    try:
        with _QUIET():
            return t.device.type == "cpu" and t.untyped_storage().data_ptr() == \
                a.__array_interface__["data"][0] - t.storage_offset() * t.element_size()
    except Exception:
        return False


def _silent_repeat(target, index) -> bool:
    """Does ``target[index] = v`` go through into memory that ``target`` repeats?"""
    if not basic_index(index):
        return False
    with _QUIET():
        region = target[index]
        return region.numel() > 0 and _overlap(region) == 0 and _overlap(target) == 1


def _written_name(where) -> Optional[str]:
    """The plain name an in-place write at ``where`` is made through (``y.mul_(2)``, ``y[0] =
    v``, ``y += 1``), from the source text of the instruction; None for anything else."""
    if where is None:
        return None
    filename, l0, c0, l1, c1 = where
    lines = linecache.getlines(filename)[l0 - 1:l1]
    if not lines:
        return None
    data = [ln.encode("utf-8") for ln in lines]  # the columns count bytes
    if len(data) == 1:
        text = data[0][c0:c1]
    else:
        text = data[0][c0:] + b"".join(data[1:-1]) + data[-1][:c1]
    try:
        node = ast.parse(text.decode("utf-8").strip(), mode="exec").body[0]
    except (SyntaxError, ValueError, IndexError, UnicodeDecodeError):
        return None
    if type(node) is ast.Expr:
        node = node.value
    if type(node) is ast.AugAssign:
        node = node.target
    elif type(node) is ast.Call:
        node = node.func
    if type(node) in (ast.Attribute, ast.Subscript):
        node = node.value
    return node.id if type(node) is ast.Name else None


class _Watch:
    """A write was made through one side: is the other side read afterwards?"""

    __slots__ = ("made", "obj", "others", "left")

    def __init__(self, made: _Made, obj, others) -> None:
        self.made, self.obj, self.others = made, weakref.ref(obj), others
        self.left = BUDGET

    def read(self, frame, names) -> bool:
        obj = self.obj()
        if obj is None:
            return False
        if self.others is not None:  # TEN404: the other names, still naming the tensor
            return any(_lookup(frame, n) is obj for n in names & self.others)
        array = self.made.array()
        if array is None:
            return False
        for n in names:
            v = _lookup(frame, n)
            if v is array or (np is not None and isinstance(v, np.ndarray) and
                              v.base is array):
                return True
        return False


class _Lines:
    """Line events of the frames that hold a watch, and only of those."""

    def __init__(self, record) -> None:
        self.record = record
        self.frames: Dict[int, list] = {}  # key_of(frame) -> [frame, [watches], chained local]
        self.prev = None
        self.on, self.thread = False, None
        self.misses: Dict[tuple, int] = {}
        self._reads: Dict[object, dict] = {}

    def watch(self, frame, w: _Watch) -> None:
        if self.misses.get(w.made.where, 0) >= MISSES:
            return
        if self.on and sys.gettrace() != self._global:
            if threading.get_ident() != self.thread:
                return  # one thread at a time is watched
            self.close()  # the program set a tracer of its own since: it keeps it
        if not self.on:
            prev = sys.gettrace()
            if prev is not None and type(prev) not in (types.FunctionType, types.MethodType):
                return  # a tracer written in C (coverage): not chained, nothing watched
            self.prev, self.on, self.thread = prev, True, threading.get_ident()
            sys.settrace(self._global)
        slot = self.frames.get(key_of(frame))
        if slot is None or slot[0] is not frame:
            slot = self.frames[key_of(frame)] = [frame, [], frame.f_trace]
            frame.f_trace = self._local
        slot[1] = [x for x in slot[1] if x.made is not w.made] + [w]

    def forget(self, obj) -> None:
        """A new conversion of ``obj``: the watches of its earlier one end."""
        for slot in list(self.frames.values()):
            slot[1] = [w for w in slot[1] if w.obj() is not obj]
            if not slot[1]:
                self._drop(slot)

    def _global(self, frame, event, arg):
        prev = self.prev
        return prev(frame, event, arg) if prev is not None else None

    def _local(self, frame, event, arg):
        slot = self.frames.get(key_of(frame))
        if slot is None or slot[0] is not frame:
            return None
        try:
            if event == "line":
                self._line(frame, slot)
            elif event == "return":
                for w in slot[1]:
                    self._missed(w)
                slot[1] = []
                self._drop(slot)
        except Exception:  # never raise into the watched program
            slot[1] = []
            self._drop(slot)
        chained = slot[2]
        if chained is not None:
            slot[2] = chained = chained(frame, event, arg)
        return self._local if slot[1] else chained

    def _line(self, frame, slot) -> None:
        line = frame.f_lineno
        names, written = self._reads_of(frame.f_code).get(line, (None, None))
        keep = []
        for w in slot[1]:
            w.left -= 1
            if names and w.read(frame, names):
                self.record(w.made.code, w.made.where, w.made.observed)
            elif w.left <= 0 or line == w.made.where[1] or w.obj() is None or \
                    (written and w.read(frame, written)):
                # a write into the other side (`w32.add_(u); w.copy_(w32)`, the fp16 master
                # weights' step): the change was meant to reach it
                self._missed(w)
            else:
                keep.append(w)
        slot[1] = keep
        if not keep:
            self._drop(slot)

    def _missed(self, w: _Watch) -> None:
        self.misses[w.made.where] = self.misses.get(w.made.where, 0) + 1

    def _drop(self, slot) -> None:
        frame = slot[0]
        if self.frames.get(key_of(frame)) is slot:
            del self.frames[key_of(frame)]
            if frame.f_trace == self._local:
                frame.f_trace = slot[2]
        if not self.frames and self.on:
            self.on = False
            if sys.gettrace() == self._global:
                sys.settrace(self.prev)
            self.prev = None

    def close(self) -> None:
        for slot in list(self.frames.values()):
            slot[1] = []
            self._drop(slot)

    def _reads_of(self, code) -> dict:
        """Per line of ``code``: the names it reads the values of, and those it writes."""
        got = self._reads.get(code)
        if got is None:
            got = self._reads[code] = _value_reads(code)
        return got


def _value_reads(code) -> dict:
    """Per line: (the names whose value it reads, the names it writes in place)."""
    ins = list(dis.get_instructions(code))
    reads: dict = {}
    writes: dict = {}
    for n, i in enumerate(ins):
        if i.opname not in _LOADS or i.positions is None or i.positions.lineno is None:
            continue
        line = i.positions.lineno
        nxt = ins[n + 1] if n + 1 < len(ins) else None
        after = ins[n + 2] if n + 2 < len(ins) else None
        if nxt is not None and nxt.opname in ("LOAD_ATTR", "LOAD_METHOD") and \
                (nxt.argval in _NOT_READS or str(nxt.argval).endswith("_")):
            if nxt.argval in _NP_WRITES or str(nxt.argval).endswith("_"):
                writes.setdefault(line, set()).add(i.argval)  # `t.add_(...)`, `a.fill(0)`
            continue  # `a.shape`
        if nxt is not None and nxt.opname in _SIMPLE and after is not None and \
                (after.opname == "STORE_SUBSCR" or after.opname == "BINARY_OP" and
                 after.argrepr.endswith("=")):
            writes.setdefault(line, set()).add(i.argval)
            continue  # `a[i] = v`, `a += v`
        prev = ins[n - 1] if n else None
        if prev is not None and prev.opname in ("LOAD_GLOBAL", "LOAD_NAME") and \
                prev.argval == "len" and nxt is not None and nxt.opname in ("PRECALL", "CALL"):
            continue  # `len(a)`
        reads.setdefault(line, set()).add(i.argval)
    empty = frozenset()
    return {k: (frozenset(reads.get(k, empty)), frozenset(writes.get(k, empty)))
            for k in set(reads) | set(writes)}
