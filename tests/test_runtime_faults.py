"""The runtime twin where users run it and things go wrong: test suites that look at torch's own
objects, exit statuses and forked children, pytest-xdist workers, torchrun ranks, compiled code
(issue 22 items 17-20, issue 24 item 1, issue 21 item 4's runtime side).

Everything runs for real, in subprocesses, as users run it: ``pytest``, ``tensorcopy trace``,
``torchrun``.
"""
import json
import os
import subprocess
import sys
import textwrap
import warnings

import pytest

from .conftest import run, tensorcopy

torch = pytest.importorskip("torch")

from flake8_tensorcopy.runtime.watcher import Watcher  # noqa: E402


def _pytest(cwd, *args, timeout=300):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTEST_ADDOPTS", None)
    return run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
               cwd=str(cwd), env=env, timeout=timeout)


# ----------------------------------------------------------------------------- item 17
IDENTITY_TESTS = textwrap.dedent("""\
    import copy
    import pickle
    import torch


    def test_default_tensor_type():
        torch.set_default_tensor_type(torch.DoubleTensor)
        try:
            assert torch.ones(1).dtype == torch.float64
        finally:
            torch.set_default_tensor_type(torch.FloatTensor)
        assert torch.ones(1).dtype == torch.float32


    def test_pickle_types_and_tensors():
        assert pickle.loads(pickle.dumps(torch.FloatTensor)) is torch.FloatTensor
        assert copy.deepcopy(torch.LongTensor) is torch.LongTensor
        t = pickle.loads(pickle.dumps(torch.arange(3.0)))
        assert isinstance(t, torch.FloatTensor) and t.tolist() == [0.0, 1.0, 2.0]


    def test_identity_and_type_checks():
        t = torch.ones(2)
        assert isinstance(t, torch.FloatTensor) and not isinstance(t, torch.DoubleTensor)
        assert type(torch.FloatTensor) is type(torch.DoubleTensor)
        assert torch.FloatTensor is getattr(torch, "FloatTensor")
        assert {torch.FloatTensor: 1}[torch.FloatTensor] == 1
        assert t.type() == "torch.FloatTensor" and t.type(torch.DoubleTensor).dtype == torch.float64
""")


def test_a_suite_passes_under_tensorcopy_exactly_as_without(tmp_path):
    """Issue 22 item 17: the twin replaces no public torch object (the legacy constructors were
    proxies: ``set_default_tensor_type``, pickle and identity checks failed)."""
    (tmp_path / "test_identity.py").write_text(IDENTITY_TESTS)
    plain = _pytest(tmp_path)
    watched = _pytest(tmp_path, "--tensorcopy")
    assert plain.returncode == 0 and "3 passed" in plain.stdout, plain.stdout
    assert watched.returncode == 0 and "3 passed" in watched.stdout, watched.stdout


# ----------------------------------------------------------------------------- item 18
EXIT_CODES = ["None", "0", "3", "256", "-1", "2**64", "-2**63 - 1", "True", "'a message'",
              "3.5", "[1, 2]"]


@pytest.mark.parametrize("code", EXIT_CODES)
def test_trace_exits_with_pythons_own_status(write, code):
    """Issue 22 item 18: ``sys.exit(2**64)`` gave 0 under trace where Python gives 255."""
    path = write("ex.py", f"import sys\nimport torch\nc = torch.ones(2).clone().detach()\n"
                          f"sys.exit({code})\n")
    plain = run([sys.executable, str(path)])
    traced = tensorcopy("trace", str(path))
    assert traced.returncode == plain.returncode, (code, plain.returncode, traced.stderr)
    assert "TEN301" in traced.stderr and "Traceback" not in traced.stderr
    if plain.stderr:  # the message Python prints for a non-integer code, before its atexit
        # handlers run: the report is written from one, once the program is over (issue 46)
        assert traced.stderr.startswith(plain.stderr)


FORKS = textwrap.dedent("""\
    import os
    import sys
    import torch

    t = torch.ones(2)
    pid = os.fork()
    if pid == 0:
        c = t.clone().detach()
        print("child ran", flush=True)
        if len(sys.argv) > 1:
            sys.exit(int(sys.argv[1]))
    else:
        _, status = os.waitpid(pid, 0)
        print("child status", os.waitstatus_to_exitcode(status))
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
@pytest.mark.parametrize("argv", [[], ["7"]])
def test_a_forked_child_ends_as_without_the_watcher(write, argv):
    path = write("forks.py", FORKS)
    plain = run([sys.executable, str(path), *argv])
    traced = tensorcopy("trace", str(path), *argv)
    assert traced.stdout == plain.stdout and traced.returncode == plain.returncode, traced.stderr
    # the child reports nothing: one report, the parent's (which saw no pattern itself)
    assert traced.stderr.count("tensorcopy trace:") == 1 and "TEN301" not in traced.stderr


def test_keyboard_interrupt_ends_the_process_as_python_does(write):
    path = write("ki.py", "import torch\nraise KeyboardInterrupt\n")
    plain = run([sys.executable, str(path)])
    traced = tensorcopy("trace", str(path))
    assert traced.returncode == plain.returncode != 0
    assert "KeyboardInterrupt" in traced.stderr


def test_an_unwritable_pytest_report_is_a_usage_error(tmp_path):
    (tmp_path / "test_x.py").write_text("def test_x():\n    pass\n")
    res = _pytest(tmp_path, "--tensorcopy-report", str(tmp_path / "no" / "such" / "r.json"))
    out = res.stdout + res.stderr
    assert res.returncode == 4, out  # pytest's usage error
    assert "--tensorcopy-report" in out and "cannot write" in out and "Traceback" not in out


# ----------------------------------------------------------------------------- items 19, 24.1
XDIST_TESTS = textwrap.dedent("""\
    import torch


    def test_one():
        t = torch.ones(3, requires_grad=True)
        c = t.clone().detach()


    def test_two():
        d = torch.tensor(torch.ones(3))


    def test_three():
        t = torch.ones(3)
        for _ in range(3):
            c = t.clone().detach()


    def test_four():
        t = torch.ones(3)
        c = t.clone().detach()
""")


def test_pytest_xdist_workers_findings_are_merged(tmp_path):
    """Issue 22 item 19: under ``pytest -n 2`` every finding was lost."""
    pytest.importorskip("xdist")
    (tmp_path / "test_many.py").write_text(XDIST_TESTS)
    report = tmp_path / "r.json"
    res = _pytest(tmp_path, "-n", "2", "--tensorcopy", "--tensorcopy-report", str(report))
    assert res.returncode == 0, res.stdout
    assert "4 passed" in res.stdout
    items = {(i["code"], i["location"]["row"]): i for i in json.loads(report.read_text())}
    assert set(items) == {("TEN301", 6), ("TEN201", 10), ("TEN301", 16), ("TEN301", 21)}
    assert items[("TEN301", 16)]["count"] == 3
    assert items[("TEN201", 10)]["tests"] == ["test_many.py::test_two"]
    assert "tensorcopy: 4 site(s), 6 occurrence(s) from 2 worker(s)" in res.stdout
    strict = _pytest(tmp_path, "-n", "2", "--tensorcopy-strict")
    assert strict.returncode == 1 and "4 failed" in strict.stdout


DDP = textwrap.dedent("""\
    import os
    import torch
    import torch.distributed as dist

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 2))
    for step in range(2):
        model(torch.randn(3, 4)).sum().backward()
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-0.1)
    if rank == 1:
        snap = torch.tensor(torch.ones(2))
    c = model.module.weight.clone().detach()
    dist.destroy_process_group()
    os.write(1, f"rank {rank} done\\n".encode())  # one write: the ranks share the pipe
""")


def _torchrun(cwd, *args):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    return run([sys.executable, "-m", "torch.distributed.run", "--standalone",
                "--nproc-per-node", "2", "-m", "flake8_tensorcopy", "trace", *args],
               cwd=str(cwd), env=env, timeout=300)


@pytest.mark.skipif(not hasattr(torch, "distributed") or not torch.distributed.is_available(),
                    reason="no torch.distributed")
def test_torchrun_job_gets_one_merged_report_and_the_programs_status(tmp_path):
    """Issue 24 item 1: each rank printed its own report and exited 1, so torchrun failed a
    healthy job; now the job exits 0 and one report lists each site once with its ranks."""
    (tmp_path / "ddp.py").write_text(DDP)
    out = tmp_path / "r.json"
    res = _torchrun(tmp_path, "--output-format", "json", "--output", str(out), "ddp.py")
    assert res.returncode == 0, res.stderr[-3000:]
    assert sorted(res.stdout.split("\n")[:-1]) == ["rank 0 done", "rank 1 done"]
    assert "ChildFailedError" not in res.stderr and "TEN1" not in res.stderr
    items = {(i["code"], i["location"]["row"]): i for i in json.loads(out.read_text())}
    assert set(items) == {("TEN102", 11), ("TEN201", 13), ("TEN301", 14)}
    assert items[("TEN102", 11)]["ranks"] == [0, 1] and items[("TEN102", 11)]["count"] == 8
    assert items[("TEN201", 13)]["ranks"] == [1] and items[("TEN301", 14)]["count"] == 2
    assert not os.path.exists(str(out) + ".tensorcopy-parts")
    # no --output: the report goes to rank 0's stderr, once
    res = _torchrun(tmp_path, "ddp.py")
    assert res.returncode == 0, res.stderr[-3000:]
    assert res.stderr.count("ddp.py:11:9: TEN102") == 1
    assert "[8x; ranks 0,1;" in res.stderr and "one report for 2 of 2 rank(s)" in res.stderr
    assert res.stderr.count("tensorcopy trace: 3 site(s), 11 occurrence(s)") == 1


# ----------------------------------------------------------------------------- item 20
COMPILED = textwrap.dedent("""\
    import torch

    def fn(x):
        b = torch.tensor(x)
        c = x.clone().detach()
        return b + c

    f = torch.compile(fn, backend="eager")
    for _ in range(2):
        print(f(torch.ones(2)).tolist())
""")


def test_sites_in_compiled_code_name_the_users_line(write):
    """Issue 22 item 20: sites inside ``torch.compile``d code were reported at
    ``<eval_with_key>.N``."""
    path = write("comp.py", COMPILED)
    res = tensorcopy("trace", "--output-format", "json", str(path))
    assert res.returncode == 0, res.stderr
    items = json.loads(res.stderr[res.stderr.index("[\n"):])
    got = {(i["code"], os.path.basename(i["filename"]), i["location"]["row"],
            i["location"]["column"], i.get("compiled")) for i in items}
    assert got == {("TEN201", "comp.py", 4, 9, True), ("TEN301", "comp.py", 5, 9, True)}
    report = [ln for ln in tensorcopy("trace", str(path)).stderr.splitlines() if ": TEN" in ln]
    assert len(report) == 2 and all(ln.startswith(str(path)) or ln.startswith("comp.py")
                                    for ln in report), report
    assert all("in torch.compile'd code" in ln for ln in report)


# ----------------------------------------------------------------------------- issue 21 item 4
def _watch(tmp_path, src):
    path = tmp_path / "prog.py"
    path.write_text(src)
    w = Watcher()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with w:
            exec(compile(src, str(path), "exec"), {"__name__": "__main__"})
    return [(s.code, s.line, s.column, s.count) for s in w.findings()]


def test_ten302_two_statement_form_is_seen(tmp_path):
    src = textwrap.dedent("""\
        import torch

        def f(v):
            out = torch.empty_like(v)
            out.copy_(v)
            return out

        def buffer_for(v):
            return torch.zeros_like(v)

        v = torch.randn(3)
        for _ in range(2):
            f(v)
        w = torch.ones_like(v)
        w.copy_(torch.randn(3))         # another source
        z = torch.zeros_like(v)
        z.add_(1)
        z.copy_(v)                      # written in between: not a plain copy
        y = torch.empty_like(v)
        v.mul_(2)
        y.copy_(v)                      # the source changed in between
        buf = buffer_for(v)
        buf.copy_(v)                    # made by another function's call
    """)
    # where check reports it: at the copy_ call of the two statements
    assert _watch(tmp_path, src) == [("TEN302", 5, 4, 2)]


def test_report_output_keeps_links_and_writes_into_pipes(write, tmp_path):
    """``--output`` is written atomically, but never by renaming over a symbolic link (the link
    is kept, its target replaced) or a FIFO (written straight into)."""
    path = write("ex.py", "import torch\nc = torch.ones(2).clone().detach()\n")
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    res = tensorcopy("trace", "--output-format", "concise", "--output", str(link), str(path))
    assert res.returncode == 0, res.stderr
    assert link.is_symlink() and "TEN301" in real.read_text()
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    proc = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    res = tensorcopy("trace", "--output-format", "concise", "--output", str(fifo), str(path))
    out, _ = proc.communicate(timeout=120)
    assert res.returncode == 0 and "TEN301" in out and fifo.is_fifo()
