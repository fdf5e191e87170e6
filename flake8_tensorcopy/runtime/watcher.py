"""Watch a running program for the rules' patterns (imports torch).

A ``TorchFunctionMode`` sees every torch function and method called from Python, and the
``Tensor.data`` getter and setter. Most calls are passed straight through after one dict lookup;
the few that matter (``.data``, ``detach``, ``clone``, ``*_like``, ``copy_``, ``torch.tensor``,
``new_tensor``, in-place methods) are checked against small tables of recently created results,
held through weak references so that the watcher never keeps a tensor alive.

What the mode does not see, and how it is covered:
- ``torch.Tensor(t)`` and the legacy typed constructors (``torch.FloatTensor(t)``...) do not go
  through ``__torch_function__``. ``torch.Tensor.__new__`` is wrapped while the watcher runs (the
  one slot it adds); the typed constructors are immutable C types and are not watched: no public
  torch object is replaced (their identity is what ``set_default_tensor_type``, pickle and
  ``isinstance`` rely on).
- Code that ``torch.compile`` generates (FX's ``<eval_with_key>``) runs through the mode; its
  sites are mapped back to the user's line the graph node was traced from.
- Calls made from C++ (autograd's backward, TorchScript) and the calls nested
  inside a Python-level torch function (``F.relu`` -> ``torch.relu_``) are invisible; a nested
  in-place call is instead recognised from its outer function's ``inplace`` argument.
- The mode stack is per thread: threads started after the watcher (``threading.Thread``) get it
  pushed through ``threading.setprofile``; threads that already ran do not.

The watcher never raises into the watched program: an internal error disables it, with one line
on stderr.
"""
from __future__ import annotations

import inspect
import os
import sys
import threading
import weakref
from typing import Any, Dict, List, Optional, Tuple

import torch
from torch.overrides import TorchFunctionMode

from . import patches
from .accumulate import ADDS, Accumulators
from .aliasing import describe, overlapping_write, shares_storage, snapshot_hooks, \
    tensor_in, unshared_write
from .compiled import traced_from
from .conversions import TRACKED as _T_CONV, Conversions, functions as converters
from .profilers import Profilers
from .places import OWN_DIR, NoqaText, Trampolines, hide_frames, key_of, library_dirs, \
    torch_dir
from .report import Site

CODES = ("TEN101", "TEN102", "TEN103", "TEN201", "TEN202", "TEN203", "TEN204", "TEN301",
         "TEN302", "TEN401", "TEN402", "TEN403", "TEN404", "TEN405", "TEN406", "TEN501")

# kinds of torch functions
_PASS, _DATA_GET, _DATA_SET, _DETACH, _CLONE, _LIKE, _COPY, _TENSOR, _NEW_TENSOR, _INPLACE, \
    _INPLACE_KW, _BACKWARD, _CONVERT = range(13)

_DATA = torch._C.TensorBase.__dict__["data"]
_QUIET = torch._C.DisableTorchFunction
#: asked first by the mode, on every torch call (see ``patches.dynamo_compiling``)
_dynamo_compiling = patches.dynamo_compiling
#: methods ending in ``_`` that write no tensor data
_NOT_WRITES = frozenset({"requires_grad_", "share_memory_", "detach_", "retain_grad_", "set_",
                         "resize_", "resize_as_", "record_stream_", "pin_memory_", "rename_",
                         "refine_names_", "align_to_", "_fix_weakref_"})
_LIKE_NAMES = frozenset({"empty_like", "zeros_like", "ones_like"})

# tracked results
_T_DATA, _T_DETACH, _T_CLONE, _T_LIKE = range(4)

TORCH_DIR = torch_dir()
_OVERRIDES = os.path.join(TORCH_DIR, "overrides.py")


#: the file name FX gives the code it generates (``torch.compile``'s graphs run as such code)
_GENERATED = "<eval_with_key>"

# frame classes
_SKIP, _INTERNAL, _USER = range(3)


class _Ref(weakref.ref):
    __slots__ = ("key",)


class Watcher(TorchFunctionMode):
    """Records each rule's pattern as the watched code runs. ``start()``/``stop()`` or ``with``."""

    INTERNAL = _INTERNAL  # the class of a frame in torch's (or a library's) code

    def __init__(self, include_libraries: bool = False, fast: bool = True) -> None:
        super().__init__()
        self.enabled = True
        #: the mechanism: False, this ``TorchFunctionMode`` (every torch call enters it); True,
        #: call-through hooks on only what the rules need (``patches``; ``trace --fast``)
        self.fast = fast
        self.include_libraries = include_libraries
        self.sites: Dict[tuple, Site] = {}
        self.current_test: Optional[str] = None
        self.error: Optional[str] = None
        self._kinds: Dict[Any, int] = {}
        self._inplace_index: Dict[Any, int] = {}
        self._frames: Dict[Any, int] = {}
        self._positions: Dict[Any, list] = {}
        self._noqa: Dict[tuple, bool] = {}
        self._noqa_text = NoqaText()
        self.accumulators = Accumulators()
        self._compiled: Dict[tuple, tuple] = {}
        self._compiled_set: set = set()
        self._tracked: Dict[int, tuple] = {}
        self._trampoline = Trampolines()
        self._pending: Dict[int, tuple] = {}
        # read by the fast mechanism's hooks
        self.pending, self.tracked, self.frames = self._pending, self._tracked, self._frames
        self.reads: Optional[patches.Reads] = None
        self._arm = False
        self._libdirs = () if include_libraries else library_dirs()
        self._patched: List[tuple] = []
        self._active = False
        self._profilers = Profilers(self._remove_hooks, self._resume)
        self._gone = self._forget  # bound once: the weakref callback
        self.conversions = Conversions(self._where, self._position, self._record,
                                       self._tracked)  # TEN404-TEN406
        self._kinds.update(dict.fromkeys(converters(), _CONVERT))

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> "Watcher":
        self.__enter__()
        return self

    def stop(self) -> None:
        if self._active:
            self.__exit__(None, None, None)

    def __enter__(self):
        self._install_hooks()
        self._active = True
        if self.fast:  # the hooks step aside while the program profiles itself (``profilers``)
            if self._profilers.start():
                self._remove_hooks()
            return self
        return super().__enter__()

    def __exit__(self, *exc):
        try:
            if not self.fast:
                return super().__exit__(*exc)
        finally:
            self._active = False
            self._profilers.stop()
            self._remove_hooks()

    def _resume(self) -> None:
        if self._active:
            self._install_hooks()

    def _fail(self, exc: BaseException) -> None:
        if self.enabled:
            self.enabled = False
            self.error = f"{type(exc).__name__}: {exc}"
            try:
                sys.stderr.write("tensorcopy: warning: runtime watcher disabled after an internal "
                                 f"error ({self.error}); findings so far are kept\n")
            except Exception:  # pragma: no cover - stderr closed
                pass

    # ------------------------------------------------------------------ the mode
    def __torch_function__(self, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        k = _PASS
        if not _dynamo_compiling():  # first: see ``patches.dynamo_compiling``
            try:
                k = self._kinds.get(func)
            except TypeError:  # unhashable callable
                k = _PASS
            if self._pending:  # an alias written through: is it read again? (TEN401)
                self._read_after_write(args)
            if k != _PASS and (patches.compiler._is_compiling_flag or not self.enabled):
                # while torch.compile compiles the mode is a plain pass-through: dynamo cannot
                # trace frame inspection, and compiled regions are not watched (documented)
                k = _PASS
            elif k is None:
                k = self._classify(func)
        try:
            if k == _PASS:
                # the one line every passed-through call is made from: torch.jit.trace records
                # the innermost Python line of each op and its sanity check compares two traces
                return func(*args, **kwargs)
            return self.handle(k, func, args, kwargs)
        except BaseException as exc:  # the program's traceback: no frame of the watcher's
            hide_frames(exc)
            raise

    def handle(self, k: int, func, args, kwargs):
        """Call ``func`` and record what the rules need: the one decision path of both
        mechanisms (the mode's ``__torch_function__`` and the fast mechanism's hooks). The
        watcher's own reads of tensors (``_version``, ``dtype``...) run with torch functions
        disabled: a tensor subclass's ``__torch_function__`` sees only the program's calls."""
        try:
            with _QUIET():
                ok = self._before(k, func, args, kwargs)
        except Exception as exc:  # never raise into the watched program
            self._fail(exc)
            return func(*args, **kwargs)
        if k == _TENSOR or k == _NEW_TENSOR:
            out = self._call_as_user(func, args, kwargs)
        else:
            out = func(*args, **kwargs)
        if self._arm:
            self._arm = False
            self.reads.arm()
        if ok:
            try:
                with _QUIET():
                    self._after(k, func, args, kwargs, out)
            except Exception as exc:
                self._fail(exc)
        return out

    def _call_as_user(self, func, args, kwargs):
        """Call ``func`` from a one-line trampoline that carries the user's file, line and
        globals. torch warns with stacklevel 1 (``torch.tensor(t)``'s copy-construct warning),
        which would otherwise name this handler and share one once-per-location registry for
        every call site; this way the warning reads, filters and repeats as without the watcher."""
        try:
            _, frame = self._where()
            tramp = self._trampoline(frame) if frame is not None else None
        except Exception as exc:  # pragma: no cover
            self._fail(exc)
            tramp = None
        if tramp is None:
            return func(*args, **kwargs)
        return tramp(func, args, kwargs)

    def kind_of(self, func, name: str) -> int:
        """The kind of ``func`` (a method read from ``torch.Tensor`` under ``name``)."""
        if name.startswith("__i") and name.endswith("__"):  # `x += y`
            return _INPLACE
        return self._kinds.get(func) or self._classify(func)

    def quiet_write(self, k: int, name: str):
        """The hooks' test for an in-place write no rule can ask about (``aliasing``)."""
        if k != _INPLACE and k != _COPY:
            return None
        return unshared_write(self.accumulators, name in ADDS)

    def settle(self, args) -> None:
        """The fast mechanism, before each watched call: is a written alias read again (TEN401),
        and may the read mode go now that nothing is pending?"""
        if self._pending:
            self._read_after_write(args)
        if self.reads is not None and self.reads.on and not self._pending:
            self.reads.disarm()

    def _classify(self, func) -> int:
        k = _PASS
        try:
            name = getattr(func, "__name__", "")
            owner = getattr(func, "__self__", None)
            if name == "__get__" and owner is _DATA:
                k = _DATA_GET
            elif name == "__set__" and owner is _DATA:
                k = _DATA_SET
            elif name == "detach":
                k = _DETACH
            elif name == "backward":
                k = _BACKWARD
            elif name == "clone":
                k = _CLONE
            elif name in _LIKE_NAMES:
                k = _LIKE
            elif name == "copy_":
                k = _COPY
            elif func is torch.tensor:
                k = _TENSOR
            elif name == "new_tensor":
                k = _NEW_TENSOR
            elif name == "__setitem__" or name in patches.INPLACE_OPERATORS or \
                    (name.endswith("_") and not name.startswith("_")
                                           and name not in _NOT_WRITES):
                k = _INPLACE
            elif callable(func) and hasattr(func, "__code__"):
                try:
                    params = list(inspect.signature(func).parameters)
                except (TypeError, ValueError):
                    params = []
                if "inplace" in params:
                    self._inplace_index[func] = params.index("inplace")
                    k = _INPLACE_KW
        except Exception:
            k = _PASS
        try:
            self._kinds[func] = k
        except TypeError:
            pass
        return k

    def _before(self, k, func, args, kwargs) -> bool:
        """Checks that need the state before the call; returns whether ``_after`` should run."""
        if k == _INPLACE or k == _COPY or k == _INPLACE_KW:
            if k == _INPLACE_KW:
                i = self._inplace_index.get(func, -1)
                flag = kwargs.get("inplace", args[i] if 0 <= i < len(args) else False)
                if flag is not True:
                    return False
            if args:
                self._write(args[0], func, args, kwargs, k)
                # TEN403 is reported for writes made directly by the user's code: ask that
                # first (cheap), then compare the operands' memory
                if k != _INPLACE_KW and len(args) > 1 and self._direct():
                    name = getattr(func, "__name__", "")
                    if overlapping_write(name, args):
                        self._overlap(args[0])
                    if self.accumulators.grows(name, args):  # TEN501
                        where = self._user_position()
                        if where is not None:
                            self._record("TEN501", where, describe(args[0]))
            return False
        if k == _BACKWARD:
            self.accumulators.backward(args[0] if args else kwargs.get("tensors"))
            return False
        if k == _DATA_SET:
            self._data_set(args)
            return False
        return True

    def _after(self, k, func, args, kwargs, out) -> None:
        if k == _DATA_GET:
            if args and isinstance(out, torch.Tensor):
                self._created(out, _T_DATA, args[0])
        elif k == _DETACH:
            src = args[0] if args else None
            if isinstance(out, torch.Tensor) and isinstance(src, torch.Tensor):
                self._detach(src, out)
        elif k == _CLONE:
            if args and isinstance(out, torch.Tensor):
                self._created(out, _T_CLONE, args[0], out._version)
        elif k == _LIKE:
            extra = len(args) > 1 or bool(kwargs)
            if args and not extra and isinstance(out, torch.Tensor):
                self._created(out, _T_LIKE, args[0], out._version)
        elif k == _TENSOR:
            data = args[0] if args else kwargs.get("data")
            self._construct(data, "TEN201")
        elif k == _NEW_TENSOR:
            data = args[1] if len(args) > 1 else kwargs.get("data")
            if isinstance(data, torch.Tensor):
                self._construct(data, "TEN202")
        elif k == _CONVERT:
            self.conversions.made(func, args, kwargs, out)

    # ------------------------------------------------------------------ locations
    def _user_file(self, fn: str) -> bool:
        return self._file_class(fn) == _USER

    def frame_class(self, code) -> int:
        try:
            return self._frames[code]
        except KeyError:
            pass
        c = self._frames[code] = self._file_class(code.co_filename)
        return c

    def _file_class(self, fn: str) -> int:
        if fn == _OVERRIDES or fn.startswith(OWN_DIR) or fn.startswith("<frozen"):
            c = _SKIP
        elif fn.startswith(TORCH_DIR) or (self._libdirs and fn.startswith(self._libdirs)):
            c = _INTERNAL
        else:
            c = _USER
        return c

    def _direct(self) -> bool:
        """Is the call being handled made by the user's code itself (the first frame outside
        this package and torch's dispatch is a user's)?"""
        f = sys._getframe(1)
        classes = self._frames
        while f is not None:
            c = classes.get(f.f_code)
            if c is None:
                c = self.frame_class(f.f_code)
            if c != _SKIP:
                return c == _USER
            f = f.f_back
        return False

    def _where(self, own_code=None):
        """(called from user code directly?, first user frame) for the call being handled."""
        f = sys._getframe(1)
        direct = None
        classes = self._frames
        while f is not None:
            code = f.f_code
            c = classes.get(code)
            if c is None:
                c = self.frame_class(code)
            if c == _USER and code is not own_code:
                return (direct is None), f
            if c == _INTERNAL and code is not own_code and direct is None:
                direct = False
            f = f.f_back
        return False, None

    def _position(self, frame) -> Tuple[str, int, int, int, int]:
        code = frame.f_code
        if code.co_filename.startswith(_GENERATED):
            return self._compiled_position(frame)
        try:
            pos = self._positions[code]
        except KeyError:
            pos = self._positions[code] = list(code.co_positions())
        i = frame.f_lasti // 2
        line = frame.f_lineno
        if 0 <= i < len(pos):
            l0, l1, c0, c1 = pos[i]
            if l0 is not None and c0 is not None:
                return (code.co_filename, l0, c0, l1 or l0, c1 if c1 is not None else c0)
        return (code.co_filename, line, 0, line, 0)

    def _compiled_position(self, frame) -> Tuple[str, int, int, int, int]:
        """The user's line behind a line of a ``torch.compile``d graph (FX's generated
        ``<eval_with_key>`` code): the graph node's recorded stack trace; failing that, the first
        frame up the stack in the user's own files. Either way marked as compiled."""
        key = (frame.f_code, frame.f_lineno)
        where = self._compiled.get(key)
        if where is None:
            where = traced_from(frame, self._user_file)
            if where is None:
                f = frame.f_back
                while f is not None and (f.f_code.co_filename.startswith(_GENERATED)
                                         or self.frame_class(f.f_code) != _USER):
                    f = f.f_back
                fc = frame.f_code
                where = self._position(f) if f is not None else \
                    (fc.co_filename, frame.f_lineno, 0, frame.f_lineno, 0)
            self._compiled[key] = where
            self._compiled_set.add(where)
        return where

    def _record(self, code: str, where: tuple, observed: Optional[dict]) -> Optional[Site]:
        key = (code,) + where[:3]
        site = self.sites.get(key)
        if site is None:
            if self._silenced(code, where[0], where[1]):
                return None
            site = self.sites[key] = Site(code, *where)
            site.compiled = where in self._compiled_set
        site.note(observed, self.current_test)
        return site

    def _silenced(self, code: str, filename: str, line: int) -> bool:
        key = (code, filename, line)
        hit = self._noqa.get(key)
        if hit is None:
            # ``# noqa`` (and a whole-file ``# flake8: noqa``) read exactly as the linter reads
            # it (``noqa.py`` imports no libcst)
            hit = self._noqa[key] = self._noqa_text.silences(filename, line, code)
        return hit

    # ------------------------------------------------------------------ tracked results
    def _created(self, out, kind: int, src, extra=None) -> None:
        direct, frame = self._where()
        if not direct or frame is None:
            return
        where = self._position(frame)
        key = key_of(out)
        ref = _Ref(out, self._gone)
        ref.key = key
        src_ref = weakref.ref(src) if isinstance(src, torch.Tensor) else None
        if kind == _T_LIKE:  # the buffer's and the source's versions, and the frame that made it
            extra = (extra, src._version, key_of(frame), frame.f_code)
        self._tracked[key] = (ref, kind, src_ref, where, extra)
        if kind == _T_DATA:
            self._record("TEN101", where, describe(src))

    def _forget(self, ref) -> None:
        entry = self._tracked.get(ref.key)
        if entry is not None and entry[0] is ref:
            del self._tracked[ref.key]

    def _entry(self, t):
        entry = self._tracked.get(key_of(t))
        if entry is not None and entry[0]() is t:
            return entry
        return None

    def _detach(self, src, out) -> None:
        entry = self._entry(src)
        if entry is not None and entry[1] == _T_CLONE and src._version == entry[4]:
            direct, frame = self._where()
            if direct and frame is not None:
                where = self._position(frame)
                if where[:2] == entry[3][:2]:
                    self._record("TEN301", where, describe(src))
                    return
        self._created(out, _T_DETACH, src)

    def _write(self, target, func, args, kwargs, k) -> None:
        entry = self._entry(target)
        if entry is None:
            return
        kind = entry[1]
        if kind == _T_CONV:
            return self.conversions.write(entry, target, func, args, k)
        if kind == _T_LIKE:
            # `torch.empty_like(t).copy_(t)`, on one line or two (`out = torch.empty_like(t)`,
            # then `out.copy_(t)` in the same call of the same function, with neither written in
            # between): reported where the static rule reports it, at the `*_like` call on one
            # line, at the `copy_` call for two statements
            if k == _COPY and len(args) == 2 and not kwargs and entry[2] is not None \
                    and args[1] is entry[2]():
                made, src_version, frame_id, frame_code = entry[4]
                if target._version == made and args[1]._version == src_version:
                    direct, frame = self._where()
                    if direct and frame is not None and key_of(frame) == frame_id \
                            and frame.f_code is frame_code:
                        where = entry[3]
                        here = self._position(frame)
                        if here is not None and here[1] != where[1]:
                            where = here
                        self._record("TEN302", where, describe(args[1]))
            return
        if kind not in (_T_DATA, _T_DETACH):
            return
        _, frame = self._where()
        if frame is None:
            return
        where = self._position(frame)
        same_line = where[:2] == entry[3][:2]
        src = entry[2]() if entry[2] is not None else None
        if kind == _T_DATA and same_line:
            if entry[4] == "written":
                return  # `p.data.add_(1).mul_(2)`: one site, already counted
            self._record("TEN102", entry[3], describe(src))
            read = self.sites.get(("TEN101",) + entry[3][:3])
            if read is not None:
                read.count -= 1
            # the alias is spent: a later `p.data = alias` (augmented assignment) is not TEN103
            self._tracked[key_of(target)] = entry[:1] + (_T_DATA, entry[2], entry[3], "written")
            return
        if same_line or src is None:
            return  # `x.detach().add_(...)`: a deliberate no_grad-like update; or x is gone
        if not shares_storage(target, src):
            # `bak = p.data; p.data = p.data.double(); bak.copy_(...)`: `p` was given other
            # storage since; the write no longer reaches it (as the static rule has it)
            return
        if kind == _T_DATA:
            # as the static rule has it: autograd never sees a write through a `.data` alias,
            # so it is reported whether or not the alias is read again
            self._record("TEN401", where, describe(src))
            return
        # reported once the alias is used again: a write nothing reads afterwards is a
        # deliberate write-through (as the static rule has it)
        if key_of(target) not in self._pending:
            ref = _Ref(target, self._unpend)
            ref.key = key_of(target)
            self._pending[key_of(target)] = (ref, where, describe(src))
            if self.reads is not None:  # the fast mechanism: watch every call until it is
                self._arm = True           # read, from the end of this write on (`handle`)

    def _unpend(self, ref) -> None:
        entry = self._pending.get(ref.key)
        if entry is not None and entry[0] is ref:
            del self._pending[ref.key]

    def _user_position(self):
        """Where the user's code called the function being handled (None: not directly)."""
        direct, frame = self._where()
        return self._position(frame) if direct and frame is not None else None

    def _overlap(self, target) -> None:
        """TEN403: the write's source overlaps its destination, at the user's line."""
        direct, frame = self._where()
        if direct and frame is not None:
            self._record("TEN403", self._position(frame), describe(target))

    def _read_after_write(self, args) -> None:
        try:
            pending = self._pending
            for a in args[:4]:
                hit = pending.get(key_of(a))
                if hit is not None:
                    del pending[key_of(a)]
                    if hit[0]() is a:
                        with _QUIET():
                            self._record("TEN401", hit[1], hit[2])
            if len(pending) > 256:  # aliases never read again: forget the dead ones
                for key in [k for k, v in pending.items() if v[0]() is None]:
                    del pending[key]
        except Exception as exc:
            self._fail(exc)

    def _data_set(self, args) -> None:
        if len(args) < 2:
            return
        owner, value = args[0], args[1]
        entry = self._entry(value)
        if entry is not None and entry[1] == _T_DATA and entry[2] is not None \
                and entry[2]() is owner:
            return  # `p.data -= x`: the getter's own alias written back
        direct, frame = self._where()
        if direct and frame is not None:
            self._record("TEN103", self._position(frame), describe(owner))

    def _construct(self, data, code: str) -> None:
        if isinstance(data, torch.Tensor):
            found = data
        elif code == "TEN201" and isinstance(data, (list, tuple)):
            found = tensor_in(data)
            if found is None:
                return
            code = "TEN204"
        else:
            return
        direct, frame = self._where()
        if direct and frame is not None:
            self._record(code, self._position(frame), describe(found))

    def legacy(self, data, own_code) -> None:
        """``torch.Tensor(t)`` / ``torch.FloatTensor(t)`` seen through the installed hooks."""
        if not self.enabled:
            return
        try:
            with torch._C.DisableTorchFunction():
                direct, frame = self._where(own_code)
                if direct and frame is not None:
                    self._record("TEN203", self._position(frame), describe(data))
        except Exception as exc:
            self._fail(exc)

    # ------------------------------------------------------------------ hooks for what the mode misses
    def _install_hooks(self) -> None:
        if self._patched:
            return
        watcher = self
        tensor_new = torch.Tensor.__dict__.get("__new__")
        base_new = torch._C.TensorBase.__new__

        def __new__(*args, **kwargs):  # a wildcard signature, as torch._dynamo's polyfill check wants
            cls, args = args[0], args[1:]
            if cls is torch.Tensor and len(args) == 1 and not kwargs \
                    and isinstance(args[0], torch.Tensor):
                watcher.legacy(args[0], __new__.__code__)
            try:
                if tensor_new is not None:
                    return tensor_new(cls, *args, **kwargs)
                return base_new(cls, *args, **kwargs)
            except BaseException as exc:  # the program's traceback, without this frame
                hide_frames(exc)
                raise

        torch.Tensor.__new__ = __new__
        self._patched.append((torch.Tensor, "__new__", tensor_new))
        self._patched.extend(snapshot_hooks(self._record, self._user_position))  # TEN402
        self._patched.extend(self.conversions.install(self))
        if self.fast:
            self.reads = patches.Reads(self._read_after_write)
            self._patched.extend(patches.install(self, self.kind_of, self.handle, self.reads,
                                                 self.settle))
            return  # the hooks are on the class: every thread is watched
        try:
            if getattr(threading, "getprofile", lambda: None)() is None:  # not a profiler's
                threading.setprofile(patches.thread_start(self))
                self._patched.append((threading, "setprofile", None))
        except Exception:  # pragma: no cover
            pass

    def _remove_hooks(self) -> None:
        self.conversions.close()
        if self.reads is not None:
            self.reads.disarm()
        for owner, name, old in reversed(self._patched):
            if owner is threading:
                threading.setprofile(None)
            elif old is None:
                try:
                    delattr(owner, name)
                except AttributeError:
                    pass
            else:
                setattr(owner, name, old)
        self._patched = []

    # ------------------------------------------------------------------ results
    def snapshot(self) -> Dict[tuple, int]:
        return {k: s.count for k, s in self.sites.items()}

    def findings(self) -> List[Site]:
        return sorted((s for s in self.sites.values() if s.count > 0),
                      key=lambda s: (s.filename, s.line, s.column, s.code))
