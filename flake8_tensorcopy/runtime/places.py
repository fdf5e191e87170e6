"""Where the watched program's code lives, told apart from torch's, the libraries' and this
package's own (imports no torch: the runner and the line tracer need these before the program
imports torch)."""
from __future__ import annotations

import importlib.util
import linecache
import os
import sys
import sysconfig
import types
from typing import Dict, Optional, Set, Tuple

from ..noqa import noqa_lines, silences, skips_file

OWN_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


#: an object's key in the watcher's tables while it lives: ``id`` raises an audit event on each
#: call (``builtins.id``), which costs a call of every audit hook (``profilers`` adds one);
#: ``object.__hash__`` is the address too, rotated, and raises none
key_of = object.__hash__

#: this folder: the watcher's hooks, whose frames no traceback the program sees may show
RUNTIME_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
#: code objects of ours under another file name (the watcher's trampolines carry the user's)
HIDDEN_CODES: Set[object] = set()


def hide_frames(exc: BaseException) -> None:
    """Take the watcher's own frames out of the traceback of ``exc``, an exception passing
    through one of its hooks; the hook then re-raises it with a bare ``raise``, which adds no
    entry for the hook's own frame on Python 3.11+ (the traceback is read from the exception),
    so that the program sees the traceback it sees without the watcher. On 3.9 and 3.10 a bare
    ``raise`` re-raises the traceback held when the exception was caught: the hooks' frames
    stay (measured; ``tests/test_runtime_transparency.py``)."""
    tb = exc.__traceback__
    head = last = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if not (code.co_filename.startswith(RUNTIME_DIR) or code in HIDDEN_CODES):
            if last is None:
                head = tb
            else:
                last.tb_next = tb
            last = tb
        tb = tb.tb_next
    if last is not None:
        last.tb_next = None
    exc.__traceback__ = head


#: ``func(*args, **kwargs)`` in a code object of its own, given the user's file and line
_TRAMPOLINE = next(c for c in compile("lambda func, args, kwargs: func(*args, **kwargs)",
                                      "<tensorcopy>", "eval").co_consts
                   if isinstance(c, types.CodeType))


class Trampolines:
    """``self(frame)``: a one-line function ``(func, args, kwargs) -> func(*args, **kwargs)``
    whose code carries the file, line, name and globals of ``frame`` (a user's), one per line;
    its frames are hidden from tracebacks like the hooks' own (``hide_frames``)."""

    def __init__(self) -> None:
        self._made: Dict[tuple, tuple] = {}

    def __call__(self, frame) -> types.FunctionType:
        code = frame.f_code
        key = (code, frame.f_lineno)
        hit = self._made.get(key)
        if hit is not None and hit[1] is frame.f_globals:
            return hit[0]
        tramp = types.FunctionType(
            _TRAMPOLINE.replace(co_filename=code.co_filename, co_firstlineno=frame.f_lineno,
                                co_name=code.co_name, co_qualname=code.co_name),
            frame.f_globals)
        self._made[key] = (tramp, frame.f_globals)
        HIDDEN_CODES.add(tramp.__code__)
        return tramp


def torch_dir() -> str:
    """torch's package folder, found without importing torch ('' when it is not installed)."""
    mod = sys.modules.get("torch")
    origin = getattr(mod, "__file__", None)
    if origin is None:
        try:
            spec = importlib.util.find_spec("torch")
        except (ImportError, ValueError):
            spec = None
        origin = spec.origin if spec is not None else None
    return os.path.dirname(os.path.abspath(origin)) + os.sep if origin else ""


def library_dirs() -> Tuple[str, ...]:
    dirs = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        p = sysconfig.get_paths().get(key)
        if p:
            dirs.add(os.path.abspath(p) + os.sep)
    for p in sys.path:
        if p and os.path.basename(p.rstrip(os.sep)) in ("site-packages", "dist-packages"):
            dirs.add(os.path.abspath(p) + os.sep)
    return tuple(sorted(dirs))


class NoqaText:
    """The text flake8 searches for a ``# noqa`` of a diagnostic on a line: the line widened to
    its whole token run (a backslash continuation, a string over several lines), read with
    ``noqa.noqa_lines``, the one parser every front end uses; one tokenization per file. A file
    with a ``# flake8: noqa`` line is one flake8 skips whole (``noqa.skips_file``, as ``check``
    asks it): every line of it is silenced."""

    def __init__(self) -> None:
        self._files: Dict[str, Optional[Dict[int, str]]] = {}

    def _searched(self, filename: str) -> Optional[Dict[int, str]]:
        """line -> searched text; None for a file flake8 skips."""
        try:
            return self._files[filename]
        except KeyError:
            pass
        source = "".join(linecache.getlines(filename))
        low = source.lower()
        if "flake8" in low and skips_file(source):
            searched = None
        else:
            searched = noqa_lines(source) if "noqa" in low else {}
        self._files[filename] = searched
        return searched

    def silences(self, filename: str, line: int, code: str) -> bool:
        """Does flake8 silence ``code`` reported at ``filename:line``?"""
        searched = self._searched(filename)
        if searched is None:
            return True
        return silences(searched.get(line) or linecache.getline(filename, line), code)
