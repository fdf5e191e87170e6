"""The runtime twin the program cannot notice (issue 46): each program below runs with plain
``python`` and under ``tensorcopy trace`` (as a ``torchrun`` launch runs it: ``python -m
flake8_tensorcopy trace``, the report written to a file so that standard error is the program's
own), in subprocesses, and what the program sees and prints must be the same: standard output,
standard error (tracebacks included) and the exit status.

The anchor is coverage.py's ``run``: the target runs as ``__main__`` exactly as ``python`` runs
it (path, ``-m``, ``sys.argv``, exit status, exceptions, ``sys.excepthook``, ``atexit``, signals,
threads), torch is imported only when the program imports it, and the twin never appears in the
program's frames, profiles or tracebacks.
"""
import json
import os
import sys
import textwrap

import pytest

from .conftest import run

pytest.importorskip("torch")

PROGRAMS = {
    "caught_tracebacks": """\
        import traceback
        import torch

        def frames(fn):
            try:
                fn()
            except Exception as exc:
                return [(f.name, f.line) for f in traceback.extract_tb(exc.__traceback__)]
        leaf = torch.ones(2, requires_grad=True)
        print(frames(lambda: torch.ones(2) @ torch.ones(3)))
        print(frames(lambda: torch.ones(2).view(3)))
        print(frames(lambda: leaf.add_(1)))
        print(frames(lambda: torch.ones(2).copy_(torch.ones(3))))
        print(frames(lambda: torch.ones(2).__setitem__(0, torch.ones(3))))
    """,
    # torch reads OMP_NUM_THREADS when it is imported: the program's own import
    "env_before_import": """\
        import os
        import sys
        os.environ["OMP_NUM_THREADS"] = "1"
        print("torch imported before the program:", "torch" in sys.modules)
        import torch
        print(torch.get_num_threads())
    """,
    "excepthook": """\
        import sys
        import torch

        def hook(kind, value, tb):
            print("program's hook:", kind.__name__, value, tb.tb_frame.f_code.co_name)
        sys.excepthook = hook
        raise ValueError(torch.ones(2).sum().item())
    """,
    "uncaught_traceback": """\
        import torch

        def f(x):
            return x @ torch.ones(3)
        f(torch.ones(2))
    """,
    "ctrl_c_runs_atexit": """\
        import atexit
        import torch
        atexit.register(print, "atexit ran", torch.ones(1).item())
        raise KeyboardInterrupt
    """,
    "pickle_main_class_at_exit": """\
        import atexit
        import pickle
        import torch

        class Box:
            def __init__(self):
                self.t = torch.ones(2)

        def save():
            print("pickled", type(pickle.loads(pickle.dumps(Box()))).__name__)
        atexit.register(save)
    """,
    "main_module": """\
        import sys
        import __main__
        import torch
        print(__main__.__dict__ is globals(), __name__, __spec__, __package__, __cached__)
        print(os.path.basename(__file__) if (os := __import__("os")) else "")
        print(type(__loader__).__name__, sys.argv, sorted(globals()))
    """,
    "jit_trace": """\
        import torch
        import warnings
        warnings.simplefilter("default")
        torch.manual_seed(0)
        m = torch.jit.trace(torch.nn.Linear(3, 2), torch.ones(1, 3))
        print(type(m).__name__, m(torch.ones(1, 3)).shape)
    """,
    "profile_hooks": """\
        import sys
        import threading
        import torch
        print(sys.getprofile(), sys.gettrace(), threading.getprofile(), threading.gettrace())
        seen = []
        t = threading.Thread(target=lambda: seen.append((sys.getprofile(), sys.gettrace())))
        t.start()
        t.join()
        print(seen)
    """,
    "threads_and_signals": """\
        import signal
        import threading
        import torch

        def work():
            x = torch.ones(64, 64)
            for _ in range(20):
                x = (x @ x) * 0.01
        ts = [threading.Thread(target=work) for _ in range(4)]
        for t in ts:
            t.start()
        print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)
    """,
    # a watched call (one a rule may ask about: a write to a view, ``clone``, ``.data = ``,
    # ``torch.tensor``, ``load_state_dict``...) that raises: no frame of the watcher's, caught
    # or printed (``traceback``, ``logging.exception``)
    "caught_tracebacks_of_watched_calls": """\
        import logging
        import sys
        import traceback
        import torch

        logging.basicConfig(stream=sys.stdout, format="%(message)s")

        def frames(fn):
            try:
                fn()
            except Exception as exc:
                logging.exception("caught")
                print(traceback.format_exc())
                return [(f.name, f.line) for f in traceback.extract_tb(exc.__traceback__)]
        base = torch.ones(4)
        w = torch.ones(2, requires_grad=True)
        print(frames(lambda: base[:2].copy_(torch.ones(3))))
        print(frames(lambda: base.clone(memory_format=torch.channels_last)))
        print(frames(lambda: setattr(base, "data", "x")))
        print(frames(lambda: torch.tensor([w, "x"])))
        print(frames(lambda: torch.Tensor("x")))
        print(frames(lambda: torch.nn.Linear(2, 2).load_state_dict({"w": w})))
        base[:2].add_(torch.ones(3))
    """,
    # the program's profiles list its own calls only (``cProfile``'s object, ``cProfile.runctx``
    # and the pure-Python ``profile``)
    "cprofile": """\
        import cProfile
        import os
        import profile
        import pstats
        import torch

        def step(x):
            y = torch.relu(x @ x)
            y.add_(1)
            z = torch.tensor(y)
            return y.clone().detach().sum() + z.data.sum()
        x = torch.ones(4, 4)
        step(x)
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(3):
            step(x)
        prof.disable()
        print(sorted({(os.path.basename(f), name) for f, _, name in pstats.Stats(prof).stats}))
        step(x)
        prof = cProfile.Profile()
        prof.runctx("step(x)", globals(), locals())
        print(sorted({(os.path.basename(f), name) for f, _, name in pstats.Stats(prof).stats}))
        prof = profile.Profile()
        prof.runcall(step, x)
        print(sorted({(os.path.basename(f), name.split(" at 0x")[0])
                      for f, _, name in pstats.Stats(prof).stats}))
        step(x)
    """,
}

#: Python 3.9 and 3.10 re-raise the traceback held when the exception was caught: a bare
#: ``raise`` in a hook cannot drop the hook's own frame (measured: the hooks' frames stay)
_TRACEBACKS_BEFORE_311 = pytest.mark.xfail(
    sys.version_info < (3, 11), strict=True,
    reason="before 3.11 a bare raise keeps the traceback held when the exception was caught")
PARAMS = [pytest.param(name, marks=[_TRACEBACKS_BEFORE_311] if "traceback" in name else [])
          for name in sorted(PROGRAMS)]


def _run_both(tmp_path, name, src, script_dir=".", flags=()):
    folder = tmp_path / script_dir
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / f"{name}.py"
    script.write_text(textwrap.dedent(src))
    rel = os.path.relpath(script, tmp_path)
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    plain = run([sys.executable, rel], cwd=str(tmp_path), env=env, timeout=300)
    report = tmp_path / "report.json"
    watched = run([sys.executable, "-m", "flake8_tensorcopy", "trace", *flags, "--output-format",
                   "json", "--output", str(report), rel], cwd=str(tmp_path), env=env, timeout=300)
    return plain, watched, report


@pytest.mark.parametrize("name", PARAMS)
def test_the_program_sees_the_same_under_trace(tmp_path, name):
    plain, watched, report = _run_both(tmp_path, name, PROGRAMS[name])
    assert (watched.returncode, watched.stdout, watched.stderr) == \
        (plain.returncode, plain.stdout, plain.stderr)
    assert "terminate called" not in plain.stderr
    assert isinstance(json.loads(report.read_text()), list)


def test_the_expected_behaviour_is_what_python_does(tmp_path):
    """The programs above show what they are about with plain python (so that the comparison
    cannot pass on two equally broken runs)."""
    out = {}
    for name in ("env_before_import", "excepthook", "ctrl_c_runs_atexit",
                 "pickle_main_class_at_exit", "jit_trace"):
        plain, _, _ = _run_both(tmp_path / name, name, PROGRAMS[name])
        out[name] = plain
    assert out["env_before_import"].stdout.splitlines() == [
        "torch imported before the program: False", "1"]
    assert out["excepthook"].stdout.startswith("program's hook: ValueError 2.0 <module>")
    assert out["ctrl_c_runs_atexit"].returncode == -2
    assert "atexit ran 1.0" in out["ctrl_c_runs_atexit"].stdout
    assert "KeyboardInterrupt" in out["ctrl_c_runs_atexit"].stderr
    assert out["pickle_main_class_at_exit"].stdout == "pickled Box\n"
    assert out["jit_trace"].returncode == 0, out["jit_trace"].stderr


def test_threads_never_abort_at_exit(tmp_path):
    """A program whose threads ran torch code exits cleanly every time (it aborted with
    "terminate called without an active exception", intermittently, within five runs)."""
    src = PROGRAMS["threads_and_signals"]
    for i in range(5):
        plain, watched, _ = _run_both(tmp_path / str(i), "threads", src)
        assert (watched.returncode, watched.stdout, watched.stderr) == (0, "True\n", ""), \
            watched.stderr


def test_a_script_in_a_folder_gets_its_folder_on_the_path(tmp_path):
    """``python -m flake8_tensorcopy trace scripts/x.py`` (a torchrun launch) puts ``scripts/``
    first on ``sys.path``, as ``python scripts/x.py`` does, and not the working directory."""
    src = """\
        import sys
        print(sys.path)
    """
    plain, watched, _ = _run_both(tmp_path, "where", src, script_dir="scripts")
    assert plain.stdout.startswith(repr([str(tmp_path / "scripts")])[:-1])
    assert watched.stdout == plain.stdout


def test_a_module_runs_as_python_dash_m_runs_it(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "tool.py").write_text(textwrap.dedent("""\
        import sys
        import __main__
        print(__name__, __spec__.name, __package__, __main__.__file__ == __file__)
        print(sys.argv, sys.path[0])
    """))
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    plain = run([sys.executable, "-m", "pkg.tool", "a", "-b"], cwd=str(tmp_path), env=env)
    watched = run([sys.executable, "-m", "flake8_tensorcopy", "trace", "--output",
                   str(tmp_path / "r.txt"), "-m", "pkg.tool", "a", "-b"], cwd=str(tmp_path),
                  env=env)
    assert plain.returncode == 0 and "pkg/tool.py" in plain.stdout, plain.stderr
    assert (watched.returncode, watched.stdout, watched.stderr) == \
        (plain.returncode, plain.stdout, plain.stderr)


def test_threads_never_abort_at_exit_under_the_mode(tmp_path):
    """``--mode`` pushes the watcher on each new thread's torch-function stack; it is popped as
    the thread ends (it was left there, and torch's C++ thread-local destructor aborted)."""
    script = tmp_path / "threads.py"
    script.write_text(textwrap.dedent(PROGRAMS["threads_and_signals"]))
    for _ in range(5):
        res = run([sys.executable, "-m", "flake8_tensorcopy", "trace", "--mode", "--output",
                   str(tmp_path / "r.txt"), str(script)], cwd=str(tmp_path), timeout=300)
        assert (res.returncode, res.stdout, res.stderr) == (0, "True\n", ""), res.stderr


PYTEST_SUITE = '''\
import os
import sys

os.environ["OMP_NUM_THREADS"] = "1"
TORCH_BEFORE = "torch" in sys.modules

import torch


def test_torch_is_the_suites_own_import():
    assert not TORCH_BEFORE
    assert torch.get_num_threads() == 1


def test_jit_trace_passes_its_sanity_check():
    torch.manual_seed(0)
    m = torch.jit.trace(torch.nn.Linear(3, 2), torch.ones(1, 3))
    assert m(torch.ones(1, 3)).shape == (1, 2)


def test_noqa_after_a_backslash_continuation():
    w = torch.ones(2, requires_grad=True)
    y = w.data \\
        .clone()  # noqa: TEN101
    assert y.shape == (2,)


def test_noqa_on_a_multi_line_f_string():
    w = torch.ones(2)
    text = f"""{torch.tensor(w).sum().item()}
    """  # noqa: TEN201
    assert text.startswith("2.0")


def test_unsilenced_finding_fails_under_strict():
    w = torch.ones(2)
    assert torch.tensor(w).sum().item() == 2.0
'''


@pytest.mark.parametrize("flags", [[], ["--tensorcopy-mode"]], ids=["hooks", "mode"])
def test_a_suite_under_pytest_tensorcopy_strict(tmp_path, flags):
    """The suite imports torch itself (after setting the environment), ``torch.jit.trace``'s
    sanity check passes, and ``# noqa`` after a backslash continuation and on a multi-line
    f-string is honoured as flake8 honours it (``noqa.py``); the one finding left fails its
    test, so ``--tensorcopy-strict`` is live."""
    (tmp_path / "test_suite.py").write_text(PYTEST_SUITE)
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTEST_ADDOPTS", None)
    res = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               "--tensorcopy-strict", *flags], cwd=str(tmp_path), env=env, timeout=300)
    assert "1 failed, 4 passed" in res.stdout, res.stdout[-3000:]
    summary = res.stdout.split("short test summary")[-1]
    assert "test_unsilenced_finding_fails_under_strict" in summary
    assert "TEN101" not in res.stdout


def test_pytest_tensorcopy_loads_no_torch_for_a_suite_that_never_imports_it(tmp_path):
    """The watcher starts after the session's own first ``import torch``; a suite without torch
    never loads it (the plugin imported it when the session started)."""
    (tmp_path / "test_plain.py").write_text(
        "import sys\n\n\ndef test_no_torch():\n    assert 'torch' not in sys.modules\n")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTEST_ADDOPTS", None)
    res = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tensorcopy"],
              cwd=str(tmp_path), env=env, timeout=300)
    assert res.returncode == 0 and "1 passed" in res.stdout, res.stdout[-2000:]
    assert "tensorcopy: 0 site(s)" in res.stdout


SKIPPED_FILE = """\
import torch

w = torch.ones(2)
{line}
print(torch.tensor(w).sum().item())
"""


@pytest.mark.parametrize("line", ["# flake8: noqa", "    # FLAKE8=NOQA: TEN201"])
def test_a_file_flake8_skips_is_skipped_by_the_twin(tmp_path, line):
    """A ``# flake8: noqa`` line makes flake8 skip the whole file (``noqa.skips_file``, which
    ``check`` asks too); ``tensorcopy trace`` and ``pytest --tensorcopy-strict`` report nothing
    for it. The same file with the line after code (no file-wide comment for flake8) is
    reported by all three, so the comparison is live."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTEST_ADDOPTS", None)
    for skipped, text in ((True, line.lstrip()), (False, "w.add_(0)  " + line.strip())):
        folder = tmp_path / str(skipped)
        folder.mkdir()
        src = SKIPPED_FILE.format(line=text)
        (folder / "prog.py").write_text(src)
        (folder / "test_prog.py").write_text(
            src.replace("print(", "\n\ndef test_it():\n    print("))
        lint = run([sys.executable, "-m", "flake8", "--select", "TEN", "prog.py"],
                   cwd=str(folder), env=env)
        assert (lint.stdout == "") is skipped, lint.stdout
        res = run([sys.executable, "-m", "flake8_tensorcopy", "trace", "--output-format",
                   "json", "--output", "r.json", "prog.py"], cwd=str(folder), env=env,
                  timeout=300)
        assert res.returncode == 0 and res.stdout == "2.0\n", res.stderr
        codes = [d["code"] for d in json.loads((folder / "r.json").read_text())]
        assert codes == ([] if skipped else ["TEN201"])
        suite = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                     "--tensorcopy-strict", "test_prog.py"], cwd=str(folder), env=env,
                    timeout=300)
        assert ("1 passed" in suite.stdout) is skipped, suite.stdout[-2000:]


@_TRACEBACKS_BEFORE_311
def test_tracebacks_are_the_programs_own_under_the_mode_too(tmp_path):
    name = "caught_tracebacks_of_watched_calls"
    plain, watched, _ = _run_both(tmp_path, name, PROGRAMS[name], flags=["--mode"])
    assert plain.returncode == 1 and "RuntimeError" in plain.stderr
    assert (watched.returncode, watched.stdout, watched.stderr) == \
        (plain.returncode, plain.stdout, plain.stderr)


def test_the_watcher_steps_aside_while_the_program_profiles_itself(tmp_path):
    """While a profiler is on, the hooks are down (the profile lists the program's calls only,
    above); they are back once it stops, and stay up when cProfile disables a disabled profiler
    as its statistics are read: ``cprofile`` calls ``step`` five times profiled and three times
    not (before, between and after the profiles), and each site is counted three times."""
    _, watched, report = _run_both(tmp_path, "cprofile", PROGRAMS["cprofile"])
    assert watched.returncode == 0, watched.stderr
    found = {(d["code"], d["count"]) for d in json.loads(report.read_text())}
    assert found == {("TEN201", 3), ("TEN301", 3), ("TEN101", 3)}


def test_one_session_piece_starts_and_stops_what_both_front_ends_use():
    """``runtime.session.Watch`` (``trace`` and the pytest plugin both use it) starts the
    watcher on ``import torch`` (here at once: torch is imported), tells ``on_start`` first,
    takes the hooks down while a profiler is on, and ``stop()`` (twice is fine) leaves
    ``torch``, ``sys.meta_path`` and the trace function as they were."""
    import cProfile

    import torch

    from flake8_tensorcopy.runtime.report import StaticIndex
    from flake8_tensorcopy.runtime.session import Watch

    def state():
        return dict(vars(torch.Tensor)), list(sys.meta_path), sys.gettrace(), torch.tensor

    before = state()
    seen = []
    watch = Watch(index=StaticIndex(), on_start=seen.append).start()
    try:
        assert seen == [watch.watcher] and "add_" in vars(torch.Tensor)
        prof = cProfile.Profile()
        prof.enable()
        profiled = "add_" in vars(torch.Tensor)
        prof.disable()
        prof.create_stats()  # disables the disabled profiler again
        assert not profiled and "add_" in vars(torch.Tensor)
    finally:
        watch.stop()
        watch.stop()
    assert state() == before
