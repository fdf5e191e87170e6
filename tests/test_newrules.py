"""The rules of issue 25 driven through their front ends: TEN403 (overlapping slice writes)."""
import os
import subprocess
import sys

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
    res = tensorcopy("trace", "--fail-on-findings", str(path))
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


# ---- TEN402 ---------------------------------------------------------------------------------
EARLY = """\
import torch


class EarlyStopping:
    def __init__(self):
        self.best_loss = None
        self.best_state = None

    def __call__(self, loss, model):
        if self.best_loss is None or loss < self.best_loss:
            self.best_loss = loss
            self.best_state = model.state_dict()

    def restore(self, model):
        model.load_state_dict(self.best_state)


torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
stopper = EarlyStopping()
first = None
for epoch, loss in enumerate([1.0, 2.0, 3.0]):
    opt.zero_grad()
    model(torch.ones(2, 3)).pow(2).sum().backward()
    opt.step()
    if first is None:
        first = model.weight.detach().clone()
    stopper(loss, model)
stopper.restore(model)
print(bool(torch.equal(model.weight.detach(), first)))
"""


def test_early_stopping_snapshot_static_runtime_and_fix(write):
    """The class stores `model.state_dict()` in one method and restores it in another: check
    flags the binding, trace reports the same line when the restore loads moved tensors, and the
    unsafe fix (deepcopy + `import copy`) makes the restore bring back the best weights."""
    path = write("early.py", EARLY)
    res = tensorcopy("check", "--select", "TEN402", str(path))
    assert res.returncode == 1 and ":12:13: TEN402" in res.stdout, res.stdout
    res = tensorcopy("trace", str(path))
    assert res.stdout == "False\n", res.stderr  # the bug: the restore brought back the last weights
    lines = [ln for ln in res.stderr.splitlines() if ": TEN" in ln]
    assert len(lines) == 1 and ":12:13: TEN402" in lines[0], res.stderr
    res = tensorcopy("fix", "--select", "TEN402", str(path))
    assert path.read_text() == EARLY, "an unsafe fix needs --unsafe-fixes"
    res = tensorcopy("fix", "--unsafe-fixes", "--select", "TEN402", str(path))
    assert res.returncode == 0, res.stderr
    fixed = path.read_text()
    assert fixed.startswith("import copy\nimport torch\n")
    assert "self.best_state = copy.deepcopy(model.state_dict())\n" in fixed
    res = tensorcopy("trace", str(path))
    assert res.returncode == 0 and res.stdout == "True\n", res.stderr


def test_snapshot_taken_after_the_last_change_is_silent_at_runtime(write):
    src = ("import torch\nmodel = torch.nn.Linear(3, 1)\n"
           "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nfor step in range(3):\n"
           "    model(torch.ones(2, 3)).sum().backward()\n    opt.step()\n"
           "    last = model.state_dict()\nmodel.load_state_dict(last)\n")
    path = write("last.py", src)
    assert tensorcopy("check", "--select", "TEN402", str(path)).returncode == 0
    res = tensorcopy("trace", str(path))
    assert res.returncode == 0 and ": TEN" not in res.stderr, res.stderr


REWIND = '''\
import collections
import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
renamed = {"w." + k: v for k, v in model.state_dict().items() if "num" not in k}
pairs = collections.OrderedDict((k, v) for k, v in model.state_dict().items())
first = model[0].weight.detach().clone()
model(torch.randn(4, 3)).pow(2).sum().backward()
opt.step()
print(sorted(renamed) == sorted("w." + k for k in model.state_dict() if "num" not in k),
      type(pairs).__name__,
      torch.equal(renamed["w.0.weight"], first), torch.equal(pairs["0.weight"], first))
'''


def test_a_dict_made_of_a_state_dicts_items_is_flagged_and_its_fix_keeps_its_keys(write):
    """A dict comprehension or ``OrderedDict(pairs)`` over a live state dict's items keeps the
    live tensors. The unsafe fix deep-copies what the expression makes: its renamed and filtered
    keys and its type stay (it took a deep copy of the whole state dict before: the keys
    ``load_state_dict`` was to be given were gone)."""
    path = write("rewind.py", REWIND)
    res = tensorcopy("check", "--select", "TEN402", str(path))
    assert ":7:1: TEN402" in res.stdout and ":8:1: TEN402" in res.stdout, res.stdout
    res = tensorcopy("fix", "--unsafe-fixes", "--select", "TEN402", str(path))
    assert res.returncode == 0, res.stderr
    fixed = path.read_text()
    assert "renamed = copy.deepcopy({\"w.\" + k: v for k, v in model.state_dict().items() " \
           "if \"num\" not in k})\n" in fixed, fixed
    assert "pairs = copy.deepcopy(collections.OrderedDict((k, v) for k, v in " \
           "model.state_dict().items()))\n" in fixed, fixed
    before = subprocess.run([sys.executable, "-c", REWIND], capture_output=True, text=True)
    after = subprocess.run([sys.executable, str(path)], capture_output=True, text=True)
    assert before.stdout == "True OrderedDict False False\n", before.stderr
    assert after.stdout == "True OrderedDict True True\n", after.stderr


def test_the_fix_of_a_snapshot_made_by_a_project_helper_keeps_the_helper(tmp_path):
    """``strip_prefix(net.state_dict())`` (a helper of another module that hands back the tensors
    it is given under new keys): the unsafe fix deep-copies what the helper makes, not the
    state dict it was given (whose keys were not the ones the rewind reads)."""
    import shutil

    from .conftest import FIXTURES
    project = tmp_path / "rewind_project"
    shutil.copytree(os.path.join(FIXTURES, "rewind_project"), project)
    res = tensorcopy("fix", "--unsafe-fixes", "--select", "TEN402", str(project / "prune.py"))
    assert res.returncode == 0, res.stderr
    fixed = (project / "prune.py").read_text()
    assert "    rewind = copy.deepcopy(strip_prefix(net.state_dict()))  # expect: TEN402\n" in fixed
    assert "    named = copy.deepcopy(renamed(net.state_dict()))  # expect: TEN402\n" in fixed
    assert "    early = copy.deepcopy(trainable(net))  # expect: TEN402\n" in fixed
    assert "    safe = cloned(net.state_dict())  # trap" in fixed
