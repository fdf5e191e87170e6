"""TEN404-TEN406 in the runtime twin (issue 44): a conversion that returned its receiver, the
NumPy bridge, a repeated list gathered into and an expanded tensor written by item; through
``tensorcopy trace`` (both mechanisms), ``pytest --tensorcopy`` and ``torchrun``, with the
look-alikes that copy (``.double()`` of float32, ``np.array``, ``torch.tensor``...) silent."""
import json
import os
import sys
import textwrap

import pytest

from .conftest import run

torch = pytest.importorskip("torch")
pytest.importorskip("numpy")

SCRIPT = textwrap.dedent("""\
    import numpy as np
    import torch


    def snapshot(w):
        prev = w.cpu()
        w.add_(1.0)
        return torch.equal(prev, w)


    def widened(w):
        prev = w.double()
        w.add_(1.0)
        return torch.equal(prev, w.double())


    def normalise(batch):
        x = batch.float()
        x.mul_(255)
        return x, batch.sum()


    def rebound(w):
        w = w.float()
        w.mul_(2)
        return w


    def shape_only(w):
        y = w.contiguous()
        y.mul_(2)
        return w.shape, len(w)


    def silenced(w):
        prev = w.to(w.dtype)  # noqa: TEN404
        w.add_(1.0)
        return torch.equal(prev, w)


    def clip(a):
        t = torch.from_numpy(a)
        t.clamp_(0, 1)
        return a.sum()


    def clip_copy(a):
        t = torch.tensor(a)
        t.clamp_(0, 1)
        return a.sum()


    def cast(a):
        t = torch.as_tensor(a, dtype=torch.float64)
        t.mul_(2)
        return a.sum()


    def view_then_zero(t):
        n = t.numpy()
        t.zero_()
        return n.sum()


    def asarray_then_zero(t):
        n = np.asarray(t)
        t.zero_()
        return n.sum()


    def array_then_zero(t):
        n = np.array(t)
        t.zero_()
        return n.sum()


    def rows():
        row = torch.zeros(3)
        e = row.unsqueeze(0).expand(4, -1)
        e[0] = torch.ones(3)
        return e


    def full():
        x = torch.zeros(2, 3)
        e = x.expand(2, 3)
        e[0] = torch.ones(3)
        return e


    def column():
        e = torch.zeros(1, 3).expand(4, 3)
        try:
            e[:, 0] = 7.0
        except RuntimeError:
            pass
        return e


    def refill(a):
        t = torch.from_numpy(a)
        t.clamp_(0, 1)
        a.fill(0.5)
        return a.sum()


    def master_step(w, u):
        w32 = w.float()
        w32.add_(u)
        w.copy_(w32)
        return w


    def indices(t):
        y = t.long()
        y.add_(1)
        return t.sum()


    print(snapshot(torch.zeros(3)), widened(torch.zeros(3)))
    print(normalise(torch.ones(2))[1], normalise(torch.ones(2, dtype=torch.uint8))[1])
    print(rebound(torch.ones(2)), shape_only(torch.ones(2)), silenced(torch.zeros(2)))
    print(clip(np.linspace(-1, 2, 4)), clip_copy(np.linspace(-1, 2, 4)))
    print(cast(np.ones(3, dtype=np.float32)))
    print(view_then_zero(torch.ones(3)), asarray_then_zero(torch.ones(3)),
          array_then_zero(torch.ones(3)))
    print(rows().sum(), full().sum(), column().sum())
    print(refill(np.ones(2)), master_step(torch.zeros(2), 1.0))
    print(indices(torch.zeros(2, dtype=torch.long)), indices(torch.zeros(2)))
""")

#: (code, line) of every site the script holds; all else in it copies, rebinds, reads only
#: metadata, is silenced, raises or writes the other side afterwards (``w.copy_(w32)``,
#: ``a.fill(0.5)``)
EXPECTED = [("TEN404", 6), ("TEN404", 18), ("TEN405", 42), ("TEN405", 60), ("TEN405", 66),
            ("TEN406", 79), ("TEN404", 115)]


def _trace(tmp_path, script, *flags):
    out = tmp_path / f"report{''.join(flags)}.json"
    res = run([sys.executable, "-m", "flake8_tensorcopy", "trace", *flags, "--output-format",
               "json", "--output", str(out), str(script)], cwd=str(tmp_path), timeout=300)
    return res, json.loads(out.read_text())


@pytest.mark.parametrize("flags", [[], ["--mode"]], ids=["hooks", "mode"])
def test_trace_reports_what_aliased_and_nothing_that_copied(tmp_path, flags):
    script = tmp_path / "conv.py"
    script.write_text(SCRIPT)
    plain = run([sys.executable, str(script)], cwd=str(tmp_path), timeout=300)
    res, report = _trace(tmp_path, script, *flags, "--compare")
    assert res.returncode == 0 and res.stdout == plain.stdout, res.stderr[-2000:]
    runtime = [i for i in report if i["source"] == "runtime"]
    got = [(i["code"], i["location"]["row"]) for i in runtime]
    assert got == EXPECTED, got
    # at the line and column of the static rule's report, which flags each of them too
    assert all(i["static"] for i in runtime), runtime
    assert all(i["count"] == 1 for i in runtime)
    snap = runtime[0]
    assert snap["location"]["column"] == 5 and snap["observed"][0]["device"] == "cpu"


LOOP = textwrap.dedent("""\
    import sys
    import torch

    batch = torch.ones(4)
    for step in range(40):
        x = batch.float()
        x.mul_(2)
    print(float(batch.sum()))
    for step in range(40):
        fresh = torch.ones(4)
        z = fresh.float()
        z.mul_(2)
        if step == 30:
            print(sys.gettrace())
    print(float(z.sum()))
""")


def test_loops_the_read_on_the_next_turn_and_a_site_never_read_again(tmp_path):
    """``x = batch.float(); x.mul_(2)`` in a loop doubles ``batch`` every turn: the next turn's
    conversion reads it (and the line after the loop): one finding per turn. With a fresh
    tensor each turn nothing is read afterwards: no finding, and after ``MISSES`` fruitless
    watches the site is not watched again (no tracer is left on for the loop)."""
    script = tmp_path / "loop.py"
    script.write_text(LOOP)
    res, report = _trace(tmp_path, script)
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.splitlines() == [str(float(2 ** 40 * 4)), "None", "8.0"]
    assert [(i["code"], i["location"]["row"], i["count"]) for i in report] == \
        [("TEN404", 6, 40)], report


TRACED = textwrap.dedent("""\
    import sys
    import torch

    calls = []


    def tracer(frame, event, arg):
        if event == "call":
            calls.append(frame.f_code.co_name)
        return None


    def helper():
        return 1


    def step(w):
        prev = w.cpu()
        w.add_(1.0)
        helper()
        return torch.equal(prev, w)


    sys.settrace(tracer)
    print(step(torch.zeros(2)))
    print(sys.gettrace() is tracer, "helper" in calls)
    sys.settrace(None)
""")


def test_a_tracer_of_the_program_keeps_its_events_and_its_place(tmp_path):
    script = tmp_path / "traced.py"
    script.write_text(TRACED)
    plain = run([sys.executable, str(script)], cwd=str(tmp_path), timeout=300)
    res, report = _trace(tmp_path, script)
    assert res.returncode == 0 and res.stdout == plain.stdout == "True\nTrue True\n", \
        (plain.stdout, res.stdout, res.stderr[-2000:])
    assert [(i["code"], i["location"]["row"]) for i in report] == [("TEN404", 18)]


SUITE = textwrap.dedent("""\
    import numpy as np
    import torch


    def test_bridge_written():
        a = np.linspace(-1.0, 2.0, 4)
        t = torch.from_numpy(a)
        t.clamp_(0, 1)
        assert a.sum() == 2.0


    def test_bridge_copied():
        a = np.linspace(-1.0, 2.0, 4)
        t = torch.from_numpy(a.copy())
        t.clamp_(0, 1)
        assert a.sum() == 2.0


    def test_cast_copied():
        w = torch.zeros(3)
        prev = w.double()
        w.add_(1.0)
        assert not torch.equal(prev, w.double())
""")


def test_pytest_tensorcopy_names_the_test_and_strict_fails_it(tmp_path):
    (tmp_path / "test_conv.py").write_text(SUITE)
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTEST_ADDOPTS", None)
    report = tmp_path / "r.json"
    res = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tensorcopy",
               "--tensorcopy-report", str(report)], cwd=str(tmp_path), env=env, timeout=300)
    assert "3 passed" in res.stdout, res.stdout[-3000:]
    items = json.loads(report.read_text())
    assert [(i["code"], i["location"]["row"], i["tests"]) for i in items] == \
        [("TEN405", 7, ["test_conv.py::test_bridge_written"])], items
    strict = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                  "--tensorcopy-strict"], cwd=str(tmp_path), env=env, timeout=300)
    assert "1 failed, 2 passed" in strict.stdout, strict.stdout[-3000:]
    assert "FAILED test_conv.py::test_bridge_written" in strict.stdout


GATHER = textwrap.dedent("""\
    import os
    import torch
    import torch.distributed as dist

    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    x = torch.full((1,), 10.0 + rank)
    gathered = [torch.zeros_like(x)] * world
    dist.all_gather(gathered, x)
    own = [torch.zeros_like(x) for _ in range(world)]
    dist.all_gather(own, x)
    objs = [None] * world
    dist.all_gather_object(objs, rank)
    os.write(1, f"{rank} {[float(t) for t in gathered]} {[float(t) for t in own]}\\n".encode())
    dist.destroy_process_group()
""")


@pytest.mark.skipif(not torch.distributed.is_available(), reason="no torch.distributed")
def test_all_gather_into_a_repeated_list_under_torchrun(tmp_path):
    (tmp_path / "gather.py").write_text(GATHER)
    out = tmp_path / "r.json"
    env = dict(os.environ, OMP_NUM_THREADS="1")
    res = run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node",
               "2", "-m", "flake8_tensorcopy", "trace", "--output-format", "json", "--output",
               str(out), "gather.py"], cwd=str(tmp_path), env=env, timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    # the measured mistake: every item holds the last rank's tensor; the comprehension does not
    assert sorted(res.stdout.splitlines()) == ["0 [11.0, 11.0] [10.0, 11.0]",
                                               "1 [11.0, 11.0] [10.0, 11.0]"]
    items = json.loads(out.read_text())
    assert [(i["code"], i["location"]["row"], i["location"]["column"], i["ranks"])
            for i in items] == [("TEN406", 8, 1, [0, 1])], items
