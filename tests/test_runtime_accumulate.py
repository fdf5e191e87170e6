"""TEN501 in the runtime twin (issue 43): a tensor that ``backward()`` already ran on, added in
place into an accumulator that holds an earlier iteration's graph; through ``tensorcopy trace``
(both mechanisms) and ``pytest --tensorcopy``, with the fixed forms and look-alikes silent."""
import json
import os
import sys
import textwrap

import pytest

from .conftest import run

pytest.importorskip("torch")

TRAIN = textwrap.dedent("""\
    import torch
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    total = 0.0
    fixed = 0.0
    meter = torch.zeros(())
    for step in range(4):
        opt.zero_grad()
        loss = model(torch.ones(2, 3)).pow(2).mean()
        loss.backward()
        opt.step()
        total += loss
        fixed += loss.detach()
        meter.add_(loss.item())
    # look-alikes: a forward accumulation differentiated once; an accumulator of terms that no
    # backward() ran on, differentiated itself (gradient accumulation by summed losses)
    h = torch.zeros(3)
    for _ in range(3):
        h += model.weight[0] * 2
    h.sum().backward()
    acc = torch.zeros(())
    for _ in range(3):
        acc += model(torch.ones(2, 3)).sum()
    acc.backward()
    print(round(float(fixed), 4))
""")


@pytest.mark.parametrize("flags", [[], ["--mode"]], ids=["hooks", "mode"])
def test_trace_reports_the_after_backward_accumulator_only(tmp_path, flags):
    script = tmp_path / "train.py"
    script.write_text(TRAIN)
    plain = run([sys.executable, str(script)], cwd=str(tmp_path), timeout=300)
    res = run([sys.executable, "-m", "flake8_tensorcopy", "trace", *flags, "--output-format",
               "json", str(script)], cwd=str(tmp_path), timeout=300)
    assert res.returncode == 0 and res.stdout == plain.stdout, res.stderr[-2000:]
    report = json.loads(res.stderr[res.stderr.index("["):])
    got = [(i["code"], i["location"]["row"], i["location"]["column"], i["count"])
           for i in report]
    # iteration 1 binds a new tensor (0.0 + loss), 2 is the first in-place add, 3 and 4 report
    assert got == [("TEN501", 13, 5, 2)], got


PYTEST_SUITE = textwrap.dedent("""\
    import torch


    def test_tracker_keeps_graphs():
        model = torch.nn.Linear(3, 1)
        total = torch.zeros(())
        for _ in range(3):
            loss = model(torch.ones(2, 3)).sum()
            loss.backward()
            total += loss
        assert total.requires_grad


    def test_detached_tracker():
        model = torch.nn.Linear(3, 1)
        total = torch.zeros(())
        for _ in range(3):
            loss = model(torch.ones(2, 3)).sum()
            loss.backward()
            total += loss.detach()
        assert not total.requires_grad
""")


def test_pytest_tensorcopy_strict_fails_the_test_that_keeps_graphs(tmp_path):
    (tmp_path / "test_acc.py").write_text(PYTEST_SUITE)
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTEST_ADDOPTS", None)
    res = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               "--tensorcopy-strict"], cwd=str(tmp_path), env=env, timeout=300)
    assert "1 failed, 1 passed" in res.stdout, res.stdout[-3000:]
    assert "test_acc.py:10:9: TEN501 (1x)" in res.stdout, res.stdout[-3000:]
    assert "FAILED test_acc.py::test_tracker_keeps_graphs" in res.stdout
