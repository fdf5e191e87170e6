"""The runtime pieces of one watched run, started and stopped in one place for both front ends
(``tensorcopy trace`` and ``pytest --tensorcopy``): the ``sys.meta_path`` hook that starts the
watcher right after the program's own first ``import torch`` (``runner.after_import``), the
optional line tracer of ``--compare`` (``report.LineTracer``), and the watcher itself.

Imports no torch (the watcher module is imported when the program has imported torch).
"""
from __future__ import annotations

from typing import Callable, Optional

from .places import OWN_DIR, library_dirs, torch_dir
from .report import LineTracer, StaticIndex
from .runner import AfterImport, after_import


class Watch:
    """``start()`` puts the hook (and the tracer, given a static ``index`` to trace lines for)
    in place; ``stop()`` takes all three down again, in reverse order, once (later calls do
    nothing). ``mode``: the watcher's ``TorchFunctionMode`` instead of the default hooks;
    ``on_start(watcher)`` is called with the new watcher before it starts (the pytest plugin
    tells it the current test)."""

    def __init__(self, *, include_libraries: bool = False, mode: bool = False,
                 index: Optional[StaticIndex] = None,
                 on_start: Optional[Callable[[object], None]] = None) -> None:
        self.include_libraries, self.mode, self.index = include_libraries, mode, index
        self._on_start = on_start
        self.hook: Optional[AfterImport] = None
        self.tracer: Optional[LineTracer] = None
        #: whether lines are traced (False also when a debugger or coverage holds the tracer)
        self.traced = False
        self.watcher = None
        self.stopped = False

    def start(self) -> "Watch":
        if self.index is not None:
            skip = (torch_dir(), OWN_DIR) + (() if self.include_libraries else library_dirs())
            self.tracer = LineTracer(self.index, skip)
            self.traced = self.tracer.start()
        self.hook = after_import("torch", self._start_watcher)
        return self

    def _start_watcher(self) -> None:
        """Called right after the program's own first ``import torch``."""
        from .watcher import Watcher

        watcher = Watcher(self.include_libraries, fast=not self.mode)
        if self._on_start is not None:
            self._on_start(watcher)
        self.watcher = watcher
        watcher.start()

    def stop(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        if self.hook is not None:
            self.hook.remove()
        if self.tracer is not None:
            self.tracer.stop()
        if self.watcher is not None:
            self.watcher.stop()

    @property
    def error(self) -> Optional[str]:
        """Why the watcher stopped early (None: it did not)."""
        return self.watcher.error if self.watcher is not None else None

    def findings(self) -> list:
        return self.watcher.findings() if self.watcher is not None else []
