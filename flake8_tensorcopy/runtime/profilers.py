"""The watcher steps aside while the program profiles itself (imports no torch).

A profiler (``cProfile``, ``profile``, ``threading.setprofile``) records every Python function
that runs while it is on: the hooks' descriptors and call-throughs would be listed in the
program's profile. No Python function can keep itself out of it (the profiler records the call
as the frame starts), so while a profiler is on the watcher takes its hooks down, and puts them
back when the profiler stops: the profile holds the program's own calls only, and the watcher
does not see what runs meanwhile (nothing is reported from it: its findings are lost, never
made up).

Starting and stopping a profiler is seen through an audit hook (``sys.addaudithook``), which
Python runs with profiling and tracing off, so it is in no profile either: ``sys.setprofile``
(every profiler up to Python 3.11, and ``profile`` on 3.12+; the event comes before the change,
so a thread with no profile function is starting one, unless the call reads ``disable()`` or
``sys.setprofile(None)``: cProfile disables a disabled profiler before its statistics are read)
and ``sys.monitoring.register_callback``
(``cProfile`` on 3.12+, the tool ``PROFILER_ID``: callbacks are registered before its events
are switched on, and unregistered before they are switched off). Measured on 3.9-3.13
(``tests/test_runtime_transparency.py``). An audit hook cannot be removed: one is added per
process, and it does nothing once no watcher listens.
"""
from __future__ import annotations

import dis
import sys
import threading
from typing import Callable, List, Optional, Set

_EVENTS = ("sys.setprofile", "sys.monitoring.register_callback")
_MONITORING = "sys.monitoring"
_listeners: List["Profilers"] = []
_hooked = False


def _audit(event: str, args: tuple) -> None:
    if event in _EVENTS and _listeners:
        caller = sys._getframe(1)  # the frame whose call raised the event
        for listener in list(_listeners):
            listener.event(event, args, caller)


def _profiler_tool() -> int:
    """The events of ``sys.monitoring``'s profiler tool (-1: the tool is not in use)."""
    mon = getattr(sys, "monitoring", None)
    if mon is None or mon.get_tool(mon.PROFILER_ID) is None:
        return -1
    return mon.get_events(mon.PROFILER_ID)


_CALLS = frozenset({"CALL", "CALL_METHOD", "CALL_FUNCTION", "PRECALL", "CACHE", "PUSH_NULL",
                    "KW_NAMES"})


def _setprofile_to(frame) -> Optional[bool]:
    """Whether the profile function being set by the call ``frame`` is making is one (True) or
    none (False), where its code says so: ``prof.disable()`` (cProfile's ``create_stats``
    disables an already disabled profiler) and ``sys.setprofile(None)`` set none, whatever
    was set before; ``prof.enable()`` sets one. None: not told (a change is assumed)."""
    try:
        code = frame.f_code
        ins = [i for i in dis.get_instructions(code) if i.offset <= frame.f_lasti]
        while ins and ins[-1].opname in _CALLS:
            ins.pop()
        if len(ins) >= 2 and ins[-1].opname == "LOAD_CONST" and ins[-1].argval is None \
                and ins[-2].argval == "setprofile":
            return False
        if ins and ins[-1].opname in ("LOAD_METHOD", "LOAD_ATTR"):
            return {"disable": False, "enable": True}.get(ins[-1].argval)
    except Exception:  # pragma: no cover - no frame, or code dis cannot read
        pass
    return None


class Profilers:
    """Calls ``pause()`` when a profiler starts while none was on (in any thread), and
    ``resume()`` when the last one stops."""

    def __init__(self, pause: Callable[[], None], resume: Callable[[], None]) -> None:
        self.pause, self.resume = pause, resume
        #: the threads with a profile function (their ids), and ``sys.monitoring``'s profiler
        self.on: Set[object] = set()

    def start(self) -> bool:
        """Listen; True when a profiler is already on (the caller pauses at once)."""
        global _hooked
        if not _hooked:
            sys.addaudithook(_audit)
            _hooked = True
        if sys.getprofile() is not None:
            self.on.add(threading.get_ident())
        if _profiler_tool() > 0:
            self.on.add(_MONITORING)
        _listeners.append(self)
        return bool(self.on)

    def stop(self) -> None:
        if self in _listeners:
            _listeners.remove(self)

    def event(self, event: str, args: tuple, caller) -> None:
        try:
            was = bool(self.on)
            if event == "sys.setprofile":
                me = threading.get_ident()
                after = _setprofile_to(caller)
                if after is None:  # a change: from none to one, or from one to none
                    after = sys.getprofile() is None
                if after:
                    self.on.add(me)
                else:
                    self.on.discard(me)
                # a thread that ended with its profile function on
                alive = {t.ident for t in threading.enumerate()}
                self.on = {k for k in self.on if k == _MONITORING or k in alive}
            else:
                events = _profiler_tool()
                if events == 0 and args and args[0] is not None:
                    self.on.add(_MONITORING)
                elif events > 0 and args and args[0] is None:
                    self.on.discard(_MONITORING)
            if bool(self.on) != was:
                (self.pause if self.on else self.resume)()
        except Exception:  # pragma: no cover - an audit hook that raises stops the program's call
            pass
