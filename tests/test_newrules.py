"""The rules of issue 25 driven through their front ends: TEN403 (overlapping slice writes)."""
import pytest

from .conftest import tensorcopy

torch = pytest.importorskip("torch")

SHIFT = """\
import torch


def shift(x, k):
    for _ in range(k):
        x[:, 1:] = x[:, :-1]
    return x


def disjoint(x):
    x[:, 3:] = x[:, :3]
    return x


print(shift(torch.arange(15.0).reshape(3, 5), 2)[0].tolist())
print(disjoint(torch.arange(12.0).reshape(2, 6))[0].tolist())
"""


def test_trace_reports_an_overlapping_write_at_the_users_line(write):
    """The runtime twin sees the overlap even where the static rule cannot (``x`` is an
    unannotated argument), at the user's line, and not the disjoint write."""
    path = write("shift.py", SHIFT)
    res = tensorcopy("trace", str(path))
    assert res.returncode == 1, res.stderr
    lines = [ln for ln in res.stderr.splitlines() if ": TEN" in ln]
    assert len(lines) == 1 and ":6:9: TEN403" in lines[0] and "[2x;" in lines[0], res.stderr


def test_fix_clones_the_read_side_and_the_result_is_the_intended_shift(write):
    src = ("import torch\n\nx = torch.arange(15.0).reshape(3, 5)\nx[:, 1:] = x[:, :-1]\n"
           "print(x[0].tolist())\n")
    path = write("shift.py", src)
    res = tensorcopy("check", "--select", "TEN403", str(path))
    assert res.returncode == 1 and ":4:1: TEN403" in res.stdout, res.stdout
    res = tensorcopy("fix", "--select", "TEN403", str(path))  # a safe fix: no --unsafe-fixes
    assert res.returncode == 0, res.stderr
    assert path.read_text() == src.replace("x[:, :-1]\n", "x[:, :-1].clone()\n")
    ns = {}
    exec(compile(path.read_text().replace("print(x[0].tolist())\n", ""), str(path), "exec"), ns)
    assert ns["x"][0].tolist() == [0.0, 0.0, 1.0, 2.0, 3.0]
