"""``pytest --tensorcopy``: watch every test for the rules' patterns (registered through the
``pytest11`` entry point; off unless asked).

- ``--tensorcopy``: watch the whole session (collection included), print a summary at the end,
  each finding marked as also flagged by ``tensorcopy check`` or seen only at runtime.
- ``--tensorcopy-strict``: a test that triggers a finding fails (implies ``--tensorcopy``).
- ``--tensorcopy-report PATH``: write the findings as json (``tensorcopy trace``'s schema, with
  the tests that triggered each site; implies ``--tensorcopy``).
- ``--tensorcopy-compare``: also trace which lines ran, to list static diagnostics on lines that
  ran without showing the pattern (uses ``sys.settrace``; off when coverage or a debugger holds it).

Nothing here imports torch unless one of these options is given.
"""
from __future__ import annotations

from typing import Optional

import pytest


def pytest_addoption(parser) -> None:
    group = parser.getgroup("tensorcopy", "tensor-copy mistakes observed at runtime")
    group.addoption("--tensorcopy", action="store_true", default=False,
                    help="watch tests for tensor-copy mistakes (TEN codes) and summarise them")
    group.addoption("--tensorcopy-strict", action="store_true", default=False,
                    help="fail a test that triggers a TEN finding (implies --tensorcopy)")
    group.addoption("--tensorcopy-report", metavar="PATH", default=None,
                    help="write the findings as json (implies --tensorcopy)")
    group.addoption("--tensorcopy-compare", action="store_true", default=False,
                    help="also list static diagnostics on lines that ran without the pattern "
                         "(traces executed lines; implies --tensorcopy)")


def pytest_configure(config) -> None:
    opt = config.option
    if not (opt.tensorcopy or opt.tensorcopy_strict or opt.tensorcopy_report
            or opt.tensorcopy_compare):
        return
    config.pluginmanager.register(_Session(config), "tensorcopy-session")


class _Session:
    def __init__(self, config) -> None:
        from ..runtime.report import LineTracer, StaticIndex
        from .watcher import Watcher, OWN_DIR, TORCH_DIR, library_dirs

        self.config = config
        self.strict = bool(config.option.tensorcopy_strict)
        self.report_path: Optional[str] = config.option.tensorcopy_report
        self.index = StaticIndex()
        self.tracer = None
        self.traced = False
        if config.option.tensorcopy_compare:
            self.tracer = LineTracer(self.index, (TORCH_DIR, OWN_DIR) + library_dirs())
            self.traced = self.tracer.start()
        self.watcher = Watcher()
        self.watcher.start()
        self._before = {}
        self._results = None

    # -- per test ---------------------------------------------------------------------------
    def pytest_runtest_setup(self, item) -> None:
        self.watcher.current_test = item.nodeid
        self._before = self.watcher.snapshot()

    def pytest_runtest_call(self, item) -> None:
        self.watcher.current_test = item.nodeid

    def pytest_runtest_teardown(self, item) -> None:
        self.watcher.current_test = item.nodeid

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item, call):
        report = yield
        if call.when == "call" and self.strict and report.passed:
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
    def _finish(self):
        if self._results is not None:
            return self._results
        if self.tracer is not None:
            self.tracer.stop()
        self.watcher.stop()
        from .report import build, compare

        results = build(self.watcher.findings())
        self._results = compare(results, self.index, self.tracer.ran if self.traced else None)
        return self._results

    def pytest_sessionfinish(self, session, exitstatus) -> None:
        results = self._finish()
        if self.report_path:
            from .report import render

            with open(self.report_path, "w", encoding="utf-8") as fh:
                fh.write(render("json", results, compared=True, traced_lines=self.traced) + "\n")

    def pytest_terminal_summary(self, terminalreporter) -> None:
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
                      + (f"; report written to {self.report_path}" if self.report_path else ""))
        if self.watcher.error:
            tr.write_line(f"tensorcopy: the watcher stopped early ({self.watcher.error})")

    def pytest_unconfigure(self, config) -> None:
        if self.tracer is not None:
            self.tracer.stop()
        self.watcher.stop()

