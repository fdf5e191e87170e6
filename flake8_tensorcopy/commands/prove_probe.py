"""What ``tensorcopy fix --prove`` runs inside the processes of the user's command (CMD).

This module's source is copied, as ``tensorcopy_prove_probe``, into a temporary folder that
``--prove`` puts first on ``PYTHONPATH`` beside a ``sitecustomize`` that imports it (and then
runs the ``sitecustomize`` it hides, if any); it is also named in ``PYTEST_PLUGINS``. So it
runs in every Python process CMD starts (with whichever interpreter: the standard library
only, Python 3.9 and later), with nothing in CMD changed. Two jobs:

- Saying that it runs: an empty file ``$TENSORCOPY_PROVE_OUT/probe-<pid>`` per process.
- Line coverage of the fixed lines: the lines listed in the JSON file ``$TENSORCOPY_PROVE_LINES``
  (``{real path: [line, ...]}``) that run are appended, as ``path<TAB>line``, to
  ``$TENSORCOPY_PROVE_OUT/hits`` the first time each runs in a process (written at once, so a
  process that ends by ``os._exit`` or a signal has told already). Python 3.12 and later:
  ``sys.monitoring`` LINE events, each location disabled after its first event (a free tool id;
  none free: nothing is measured); before 3.12: ``sys.settrace`` (and ``threading.settrace``),
  tracing only the frames of the listed files. A tool that replaces the trace function
  (coverage.py before 3.12, a debugger) hides the lines from it: they count as not run.
- Per-test outcomes, as a pytest plugin: node id -> passed, failed, skipped, xfailed, xpassed
  or error (a setup or teardown failure; a collection error is ``collect: <node id>``), written
  to ``$TENSORCOPY_PROVE_OUT/pytest-<pid>.json`` when the session ends. Only the outermost
  pytest session records (a pytest run by a test, or an xdist worker, does not: its outcomes
  reach the outermost session or belong to the test that ran it).
"""
import json
import os
import sys

LINES_ENV = "TENSORCOPY_PROVE_LINES"
OUT_ENV = "TENSORCOPY_PROVE_OUT"
PYTEST_ENV = "TENSORCOPY_PROVE_PYTEST"

_started = False
_wanted = {}  # real path -> set of lines
_paths = {}  # co_filename -> real path (or None: not a listed file)
_seen = set()


def _real(filename):
    try:
        return _paths[filename]
    except KeyError:
        pass
    try:
        real = os.path.realpath(os.path.abspath(filename))
    except (OSError, ValueError, TypeError):
        real = None
    _paths[filename] = real if real in _wanted else None
    return _paths[filename]


def _hit(path, line):
    key = (path, line)
    if key in _seen:
        return
    _seen.add(key)
    out = os.environ.get(OUT_ENV)
    if not out:
        return
    try:
        fd = os.open(os.path.join(out, "hits"), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, ("%s\t%d\n" % (path, line)).encode("utf-8", "surrogateescape"))
        finally:
            os.close(fd)
    except OSError:
        pass


def start():
    """Start measuring the listed lines in this process (once)."""
    global _started
    if _started:
        return
    _started = True
    name = os.environ.get(LINES_ENV)
    out = os.environ.get(OUT_ENV)
    if not name or not out:
        return
    try:  # tells --prove that the probe runs in CMD's processes
        open(os.path.join(out, "probe-%d" % os.getpid()), "w").close()
    except OSError:
        pass
    try:
        with open(name, encoding="utf-8") as fh:
            listed = json.load(fh)
        for path, lines in listed.items():
            _wanted[path] = set(lines)
    except (OSError, ValueError, AttributeError, TypeError):
        return
    if not _wanted:
        return
    if hasattr(sys, "monitoring"):
        _start_monitoring()
    else:
        _start_settrace()


def _start_monitoring():
    mon = sys.monitoring
    for tool in (mon.COVERAGE_ID, 3, 4, 5):
        try:
            mon.use_tool_id(tool, "tensorcopy-prove")
        except ValueError:  # taken
            continue
        break
    else:
        return
    disable = mon.DISABLE

    def on_line(code, line):
        path = _real(code.co_filename)
        if path is not None and line in _wanted[path]:
            _hit(path, line)
        return disable

    mon.register_callback(tool, mon.events.LINE, on_line)
    mon.set_events(tool, mon.events.LINE)


def _start_settrace():
    import threading

    def local_for(path, lines):
        def local(frame, event, arg):
            if event == "line" and frame.f_lineno in lines:
                _hit(path, frame.f_lineno)
            return local
        return local

    def trace(frame, event, arg):
        path = _real(frame.f_code.co_filename)
        if path is None:
            return None
        return local_for(path, _wanted[path])

    sys.settrace(trace)
    threading.settrace(trace)


# ---- the pytest plugin (hooks found by name) ----------------------------------------------------

_recording = False
_results = {}


def _claim_session():
    global _recording
    if os.environ.get(PYTEST_ENV) is None and os.environ.get(OUT_ENV):
        os.environ[PYTEST_ENV] = str(os.getpid())
        _recording = True


def pytest_configure(config):
    _claim_session()


def pytest_collectreport(report):
    if _recording and report.failed:
        _results["collect: " + report.nodeid] = "error"


def pytest_runtest_logreport(report):
    if not _recording:
        return
    if report.failed and report.when != "call":
        outcome = "error"
    elif report.when == "call" or report.skipped:
        outcome = report.outcome
        if hasattr(report, "wasxfail"):
            outcome = "xfailed" if report.skipped else "xpassed"
    else:
        return
    if _results.get(report.nodeid) != "error":
        _results[report.nodeid] = outcome


def pytest_sessionfinish(session, exitstatus):
    if not _recording:
        return
    out = os.environ.get(OUT_ENV)
    try:
        with open(os.path.join(out, "pytest-%d.json" % os.getpid()), "w",
                  encoding="utf-8") as fh:
            json.dump({"tests": _results, "exitstatus": int(exitstatus)}, fh)
    except (OSError, TypeError, ValueError):
        pass


if __name__ == "tensorcopy_prove_probe":  # a copy in CMD's processes, not the package's module
    start()
