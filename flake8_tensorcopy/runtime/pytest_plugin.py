"""``pytest --tensorcopy``: watch every test for the rules' patterns (registered through the
``pytest11`` entry point; off unless asked).

- ``--tensorcopy``: watch the whole session (collection included), print a summary at the end,
  each finding marked as also flagged by ``tensorcopy check`` or seen only at runtime.
- ``--tensorcopy-strict``: a test that triggers a finding fails (implies ``--tensorcopy``).
- ``--tensorcopy-report PATH``: write the findings as json (``tensorcopy trace``'s schema, with
  the tests that triggered each site; implies ``--tensorcopy``).
- ``--tensorcopy-mode``: watch through a ``TorchFunctionMode`` that every torch call enters instead
  of the default hooks on only the calls the rules need (``runtime/patches.py``); slower on short
  steps (implies ``--tensorcopy``). ``--tensorcopy-fast`` names the default and is kept.
- ``--tensorcopy-compare``: also trace which lines ran, to list static diagnostics on lines that
  ran without showing the pattern (uses ``sys.settrace``; off when coverage or a debugger holds it).

A report path that cannot be written is a usage error before any test runs. Under pytest-xdist
(``-n N``) each worker watches its own tests and the controller merges their sites into the one
summary and report. Nothing here imports torch: the watcher starts right after the session's own
first ``import torch`` (``runner.after_import``), so torch reads the environment a conftest set
up first, and a session that never imports torch never loads it.
"""
from __future__ import annotations

from typing import List, Optional

import pytest


def pytest_addoption(parser) -> None:
    group = parser.getgroup("tensorcopy", "tensor-copy mistakes observed at runtime")
    group.addoption("--tensorcopy", action="store_true", default=False,
                    help="watch tests for tensor-copy mistakes (TEN codes) and summarise them")
    group.addoption("--tensorcopy-strict", action="store_true", default=False,
                    help="fail a test that triggers a TEN finding (implies --tensorcopy)")
    group.addoption("--tensorcopy-report", metavar="PATH", default=None,
                    help="write the findings as json (implies --tensorcopy)")
    group.addoption("--tensorcopy-fast", action="store_true", default=False,
                    help="the default mechanism: hooks on only the calls the rules need (kept "
                         "for configurations written before it was the default; implies "
                         "--tensorcopy)")
    group.addoption("--tensorcopy-mode", action="store_true", default=False,
                    help="watch through a TorchFunctionMode that every torch call enters "
                         "instead of the default hooks (slower on short steps; see "
                         "docs/runtime-overhead.md; implies --tensorcopy)")
    group.addoption("--tensorcopy-compare", action="store_true", default=False,
                    help="also list static diagnostics on lines that ran without the pattern "
                         "(traces executed lines; implies --tensorcopy)")


def pytest_configure(config) -> None:
    opt = config.option
    if not (opt.tensorcopy or opt.tensorcopy_strict or opt.tensorcopy_report
            or opt.tensorcopy_compare or opt.tensorcopy_fast or opt.tensorcopy_mode):
        return
    if opt.tensorcopy_report and not hasattr(config, "workerinput"):
        _check_writable(opt.tensorcopy_report)
    config.pluginmanager.register(_Session(config), "tensorcopy-session")


def _check_writable(path: str) -> None:
    """A report path that cannot be written is a usage error, found before any test runs."""
    import os

    folder = os.path.dirname(os.path.abspath(path))
    problem = None
    if os.path.isdir(path):
        problem = "is a directory"
    elif not os.path.isdir(folder):
        problem = f"no such directory: {folder}"
    elif not os.access(folder, os.W_OK | os.X_OK) or \
            (os.path.exists(path) and not os.access(path, os.W_OK)):
        problem = "permission denied"
    if problem:
        raise pytest.UsageError(f"--tensorcopy-report {path}: cannot write: {problem}")


class _Session:
    """The watcher of one pytest process. Under pytest-xdist each worker watches its own tests
    and hands its sites (and traced lines) to the controller through ``workeroutput``; the
    controller, which runs no test and starts no watcher, merges them into the one summary and
    report (``report.merge``, the same merge as ``torchrun``'s ranks)."""

    def __init__(self, config) -> None:
        from .report import StaticIndex
        from .session import Watch

        self.config = config
        self.strict = bool(config.option.tensorcopy_strict)
        self.report_path: Optional[str] = config.option.tensorcopy_report
        self.worker = hasattr(config, "workerinput")
        self.controller = not self.worker and getattr(config.option, "dist", "no") != "no"
        self.index = StaticIndex()
        self.test: Optional[str] = None
        self.error: Optional[str] = None
        self._parts: List[dict] = []
        self._before = {}
        self._results = None
        self.watch = Watch(mode=config.option.tensorcopy_mode, on_start=self._started,
                           index=self.index if config.option.tensorcopy_compare else None)
        #: lines traced (``--tensorcopy-compare``): here, or (the controller) by every worker
        self.traced = False
        if not self.controller:  # the controller runs no test: its workers watch
            self.traced = self.watch.start().traced

    @property
    def watcher(self):
        return self.watch.watcher

    def _started(self, watcher) -> None:
        """Right after the session's first ``import torch``, before the watcher starts."""
        watcher.current_test = self.test

    # -- pytest-xdist ------------------------------------------------------------------------
    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error) -> None:
        """The controller: one worker finished; keep its part."""
        import json

        raw = getattr(node, "workeroutput", {}).get("tensorcopy")
        if raw:
            try:
                self._parts.append(json.loads(raw))
            except ValueError:  # pragma: no cover - a worker's output is ours
                pass

    # -- per test ---------------------------------------------------------------------------
    def pytest_runtest_setup(self, item) -> None:
        self.test = item.nodeid
        if self.watcher is not None:
            self.watcher.current_test = item.nodeid
            self._before = self.watcher.snapshot()

    def pytest_runtest_call(self, item) -> None:
        if self.watcher is not None:
            self.watcher.current_test = item.nodeid

    def pytest_runtest_teardown(self, item) -> None:
        if self.watcher is not None:
            self.watcher.current_test = item.nodeid

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item, call):
        report = yield
        if call.when == "call" and self.strict and report.passed and self.watcher is not None:
            new = self._new_since_setup()
            if new:
                report.outcome = "failed"
                report.longrepr = "tensorcopy (--tensorcopy-strict): this test triggered\n" + \
                    "\n".join(f"  {s.filename}:{s.line}:{s.column + 1}: {s.code} ({n}x)"
                              for s, n in new)
        return report

    def _new_since_setup(self):
        out = []
        for key, site in self.watcher.sites.items():
            n = site.count - self._before.get(key, 0)
            if n > 0:
                out.append((site, n))
        return out

    # -- end of session ---------------------------------------------------------------------
    def _stop(self) -> None:
        self.watch.stop()
        self.error = self.error or self.watch.error

    def _finish(self):
        if self._results is not None:
            return self._results
        self._stop()
        from .report import build, compare, merge

        ran = dict(self.watch.tracer.ran) if self.watch.traced else None
        if self.controller:
            sites = merge((None, p.get("sites") or []) for p in self._parts)
            self.traced = bool(self._parts) and all(p.get("traced") for p in self._parts)
            ran = {} if self.traced else None
            for p in self._parts:
                for path, lines in (p.get("ran") or {}).items():
                    if ran is not None:
                        ran.setdefault(path, set()).update(lines)
                self.error = self.error or p.get("error")
        else:
            sites = self.watch.findings()
        results = build(sites)
        self._results = compare(results, self.index, ran)
        return self._results

    def pytest_sessionfinish(self, session, exitstatus) -> None:
        if self.worker:  # the controller reports: hand it this worker's part
            import json

            self._stop()
            watch = self.watch
            ran = {k: sorted(v) for k, v in watch.tracer.ran.items()} if watch.traced else {}
            self.config.workeroutput["tensorcopy"] = json.dumps(
                {"sites": [s.to_dict() for s in watch.findings()], "traced": watch.traced,
                 "ran": ran, "error": watch.error})
            return
        results = self._finish()
        if self.report_path:
            from .report import render, write_report

            text = render("json", results, compared=True, traced_lines=self.traced) + "\n"
            write_report(self.report_path, text)

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if self.worker:
            return
        from .report import render, summary

        results = self._finish()
        tr = terminalreporter
        tr.write_sep("=", "tensorcopy runtime findings")
        text = render("text", results, compared=True, traced_lines=self.traced)
        if any(r.diagnostics for r in results) or self.traced:
            for line in text.splitlines():
                tr.write_line(line)
        s = summary(results, True, self.traced)
        tr.write_line(f"tensorcopy: {s['sites']} site(s), {s['occurrences']} occurrence(s)"
                      + (f" from {len(self._parts)} worker(s)" if self.controller else "")
                      + (f"; report written to {self.report_path}" if self.report_path else ""))
        if self.error:
            tr.write_line(f"tensorcopy: the watcher stopped early ({self.error})")

    def pytest_unconfigure(self, config) -> None:
        self._stop()
