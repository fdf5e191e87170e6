"""What a project function keeps of its arguments (``semantic/index/collect_summaries``) and the
text's stepping methods (``syntax/accumulation_shapes.stepping_names``): the facts under
TEN501's module-level logs and its steps called by a hand-written loop."""
import textwrap

import pytest

from flake8_tensorcopy.semantic.index import index
from flake8_tensorcopy.semantic.index.collect_summaries import collects, logs
from flake8_tensorcopy.syntax.accumulation_shapes import differentiated_names, stepping_names

from .conftest import flake8


def _module(tmp_path, src):
    path = tmp_path / "mod.py"
    path.write_text(textwrap.dedent(src))
    return index().load_path(str(path))


def test_logs_names_the_module_level_container_or_global_number(tmp_path):
    m = _module(tmp_path, """
        LOG = []
        HIST = {}
        TOTAL = 0.0
        NAME = "x"

        def record(value, norm):
            LOG.append(value)
            HIST.setdefault("n", []).append(norm)

        def add(value):
            global TOTAL
            TOTAL += value

        def add_undeclared(value):
            TOTAL = 0
            TOTAL += value

        def into_string(value):
            NAME.append(value)

        def local_list(value):
            LOG = []
            LOG.append(value)

        def rebinds_param(value):
            value = value.item()
            LOG.append(value)

        def store(into, value):
            into.append(value)

        def record_step(name, value, step):
            HIST[name].append((step, value))

        def store_pair(into, value):
            into.append((0, value))

        def record_row(step, value):
            LOG.append({"step": step, "loss": value})
    """)
    assert logs(m.defs["record"]) == {0: "LOG", 1: "HIST"}
    # a tuple appended holds its items (the step too: a number, reported only where the
    # caller hands an attached value)
    assert logs(m.defs["record_step"]) == {1: "HIST", 2: "HIST"}
    assert collects(m.defs["store_pair"]) == {1: 0}
    assert logs(m.defs["record_row"]) == {0: "LOG", 1: "LOG"}  # a dict display holds them
    assert logs(m.defs["add"]) == {0: "TOTAL"}
    for name in ("add_undeclared", "into_string", "local_list", "rebinds_param", "store"):
        assert logs(m.defs[name]) == {}, name
    assert collects(m.defs["store"]) == {1: 0}
    assert collects(m.defs["record"]) == {}


def test_a_method_keeps_nothing_in_module_logs(tmp_path):
    m = _module(tmp_path, """
        LOG = []

        class Meter:
            def update(self, value):
                LOG.append(value)
    """)
    assert logs(m.defs["Meter"].method("update")) == {}


def test_top_level_kind(tmp_path):
    m = _module(tmp_path, """
        import collections
        from typing import List
        G: List = []
        A = []
        B = collections.deque(maxlen=3)
        C = 0
        D = "s"
        E = A
    """)
    assert [m.top_level_kind(n) for n in "ABCDEFG"] == [
        "container", "container", "number", "other", "name", None, "container"]


@pytest.mark.parametrize("src, want", [
    ("loss = module.training_step(batch, i)\nloss.backward()\n", {"training_step"}),
    ("l = self.model.compute(b)\nopt.zero_grad()\nl.backward()\n", {"compute"}),
    ("loss = crit(out, y)\nloss.backward()\n", set()),  # a plain call: no method
    ("loss = module.training_step(batch, i)\n", set()),  # never differentiated
    ("(loss * 2).backward()\nloss = m.step(b)\n", set()),  # not the bound name
    # a module's ``forward``, where a class of the text defines one (``stepped_forwards``)
    ("class M:\n    def forward(self, x): pass\nloss = crit(model(x), y)\nloss.backward()\n",
     {"forward"}),
])
def test_stepping_names(src, want):
    assert stepping_names(src) == want


FORWARDS = """
import torch


class Net(torch.nn.Module):
    pass


class Probe(torch.nn.Module):
    pass


class Other(torch.nn.Module):
    pass


def train(loader, given):
    model = Net().to("cpu")
    model = model.cuda()
    probe, other = Probe(), Other()
    for x, y in loader:
        out = model(x)
        loss = torch.nn.functional.mse_loss(out, y)
        loss.backward()
        given(x).backward()
        p = probe(x)
    other(x).sum().backward()


def evaluate(loader):
    model = Other()
    for x in loader:
        total = model(x)
    total.backward()


def rebound(loader):
    model = Probe()
    for x in loader:
        model = Other()
        loss = model(x)
        loss.backward()
"""


def test_stepping_calls_of_a_module_of_the_file():
    import ast

    from flake8_tensorcopy.syntax.stepping import stepping_calls

    # ``Net``: its instance's output differentiated through ``out`` and ``loss`` in one loop;
    # ``Probe``: never differentiated; ``Other``: bound by unpacking (unknown), a backward outside
    # the loop, and a name bound to two classes
    # (and, as for any method a bound call names, ``mse_loss``)
    assert stepping_calls(ast.parse(FORWARDS)) == {"Net()": 24, "mse_loss": 24}


def test_stepping_calls_of_the_submodules_a_stepped_module_runs():
    """A class kept on ``self`` by a stepped class and run in its ``forward`` (called, an item
    called, or looped over) steps too, with the same ``backward()`` line; one kept but not run
    there, or kept by a class never stepped, does not."""
    import ast

    from flake8_tensorcopy.syntax.stepping import stepping_calls

    src = (
        "class A(nn.Module):\n    def forward(self, x):\n        return x\n"
        "class B(nn.Module):\n    def forward(self, x):\n        return x\n"
        "class C(nn.Module):\n    def forward(self, x):\n        return x\n"
        "class D(nn.Module):\n    def forward(self, x):\n        return x\n"
        "class Top(nn.Module):\n"
        "    def __init__(self):\n"
        "        self.a = A()\n"
        "        self.bs = nn.ModuleList([B() for _ in range(2)])\n"
        "        self.c = C()\n"
        "    def forward(self, x):\n"
        "        for b in self.bs:\n            x = b(x)\n"
        "        return self.a(x)\n"
        "class Idle(nn.Module):\n"
        "    def __init__(self):\n        self.d = D()\n"
        "    def forward(self, x):\n        return self.d(x)\n"
        "model = Top()\n"
        "for x in data:\n"
        "    out = model(x)\n"
        "    out.backward()\n")
    assert stepping_calls(ast.parse(src)) == {"Top()": 30, "A()": 30, "B()": 30}


@pytest.mark.parametrize("src, want", [
    ("loss.backward()\n", {"loss"}),
    ("total_loss\n  .backward ()\n", {"total_loss"}),  # the name and the dot on two lines
    ("pad = 1\n" + "x" * 300 + ".backward()\n", {"x" * 300}),  # longer than the window
    ("y = 2\n" + "x" * 300 + "1.backward()\n", {"x" * 300 + "1"}),
    ("(a + b).backward()\n", set()),
    ("3x.backward()\n", set()),  # not a name
    ("loss.backwards()\nloss.my_backward()\n", set()),
])
def test_differentiated_names(src, want):
    assert differentiated_names(src) == want


def test_module_log_and_called_step_reported_at_the_call_and_in_the_method(tmp_path):
    path = tmp_path / "train.py"
    path.write_text(textwrap.dedent("""
        import torch
        import torch.nn.functional as F

        LOSSES = []


        def log(value):
            LOSSES.append(value)


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = torch.nn.Linear(2, 1)
                self.outs = []

            def step(self, x, y):
                loss = F.mse_loss(self.lin(x), y)
                self.outs.append(loss)
                return loss


        def fit(net, batches, opt):
            for x, y in batches:
                loss = net.step(x, y)
                loss.backward()
                opt.step()
                log(loss)
                log(loss.item())
    """))
    out = flake8(str(path), "--select", "TEN501").stdout
    assert [line.split(":")[1] for line in out.splitlines()] == ["20", "29"], out


def test_collects_adds_into_an_item_of_the_dict_handed(tmp_path):
    m = _module(tmp_path, """
        def accumulate(stats, key, value):
            stats[key] = stats.get(key, 0.0) + value

        def bump(totals, key, value):
            totals[key] += value

        def swapped(stats, key, value):
            stats[key] = value + stats[key]

        def product(stats, key, value):
            stats[key] = stats.get(key, 1.0) * value

        def number(stats, key, value):
            stats[key] = stats.get(key, 0.0) + float(value)

        def rebinds(stats, key, value):
            stats = {}
            stats[key] = stats.get(key, 0.0) + value
    """)
    assert collects(m.defs["accumulate"]) == {2: 0}
    assert collects(m.defs["bump"]) == {2: 0}
    assert collects(m.defs["swapped"]) == {2: 0}
    for name in ("product", "number", "rebinds"):
        assert collects(m.defs[name]) == {}, name


def test_module_function_log_reported_at_a_call_through_its_module(tmp_path):
    """``logutil.log_metric("loss", loss, step)``: a function of a project module called
    through the module, which appends ``(step, value)`` to a module-level dict's list."""
    (tmp_path / "logutil.py").write_text(textwrap.dedent("""\
        from collections import defaultdict

        _HISTORY = defaultdict(list)


        def log_metric(name, value, step):
            _HISTORY[name].append((step, value))
    """))
    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        import torch

        import logutil


        def train(model, opt, loader, scheduler):
            for step, (x, y) in enumerate(loader):
                loss = torch.nn.functional.mse_loss(model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
                logutil.log_metric("loss", loss, step)
                logutil.log_metric("lr", scheduler.get_last_lr()[0], step)
    """))
    proc = flake8("--select", "TEN501", "train.py", cwd=str(tmp_path))
    assert proc.stdout.splitlines() == [
        "train.py:12:9: TEN501 `logutil.log_metric` accumulates `loss` (`log_metric()` keeps it "
        "in the module-level `_HISTORY`) after its `backward()`: every iteration's autograd "
        "graph stays reachable (memory grows each step; a later backward through it fails); "
        "accumulate `loss.detach()`"], proc.stdout + proc.stderr


def test_every_kept_argument_is_asked_not_the_first_only(tmp_path):
    """``log_step(step, loss, lr)`` keeps all three in a dict appended to a module-level list:
    the rule asks of each argument (the step is a number; the loss holds the graph)."""
    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        import torch

        _STEP_LOG = []


        def log_step(step, loss, lr):
            _STEP_LOG.append({"step": step, "loss": loss, "lr": lr})


        def train(model, opt, loader, scheduler):
            step = 0
            for x, y in loader:
                loss = torch.nn.functional.mse_loss(model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
                log_step(step, loss, scheduler.get_last_lr()[0])
                log_step(step, loss.item(), 0.1)
                step += 1
    """))
    proc = flake8("--select", "TEN501", "train.py", cwd=str(tmp_path))
    lines = [int(line.split(":")[1]) for line in proc.stdout.splitlines()]
    assert lines == [17], proc.stdout + proc.stderr


def test_stepping_calls_of_a_loop_over_a_display_of_modules():
    """``for model in (A(), B()):`` with the ``backward()`` in that loop steps each class of the
    display; a loop over others without a ``backward()`` steps none, though it binds the same
    name."""
    import ast

    from flake8_tensorcopy.syntax.stepping import stepping_calls

    src = (
        "class A(nn.Module):\n    pass\n"
        "class B(nn.Module):\n    pass\n"
        "class C(nn.Module):\n    pass\n"
        "for model in (A(), B()):\n"
        "    for x in data:\n"
        "        out = model(x)\n"
        "        out.backward()\n"
        "for model in [C()]:\n"
        "    model(x)\n")
    assert stepping_calls(ast.parse(src)) == {"A()": 10, "B()": 10}


def test_stepping_calls_of_modules_handed_to_a_function_or_held_in_a_sequential():
    """A function's parameter that its callers hand new instances of classes of the file
    (``run(Head(6))``, ``run(model=Other())``) steps each of those classes where the function's
    loop differentiates what the parameter computes; a ``nn.Sequential`` of them steps each
    class it holds. A parameter handed only something else, or a sequence of no class of the
    file, steps nothing."""
    import ast

    from flake8_tensorcopy.syntax.stepping import stepping_calls

    src = (
        "class A(nn.Module):\n    pass\n"
        "class B(nn.Module):\n    pass\n"
        "class C(nn.Module):\n    pass\n"
        "def run(head, other):\n"
        "    for x in data:\n"
        "        loss = head(x).sum()\n"
        "        loss.backward()\n"
        "        other(x)\n"
        "run(A(), C())\n"
        "run(model, other=C())\n"
        "net = nn.Sequential(nn.Linear(2, 2), B())\n"
        "plain = nn.Sequential(nn.Linear(2, 2))\n"
        "for x in data:\n"
        "    loss = net(x).sum() + plain(x).sum()\n"
        "    loss.backward()\n")
    got = stepping_calls(ast.parse(src))
    assert {k: v for k, v in got.items() if k.endswith("()")} == {"A()": 10, "B()": 18}, got
    # a method of the same name as the top-level function its callers hand ``A()`` to is
    # another function: its parameter is not that instance
    other = ("class A(nn.Module):\n    pass\n"
             "class T:\n    def run(self, head):\n        for x in data:\n"
             "            loss = head(x).sum()\n            loss.backward()\n"
             "def run(head):\n    return head\n"
             "run(A())\n")
    assert "A()" not in stepping_calls(ast.parse(other))


def test_class_and_static_methods_count_their_own_parameters(tmp_path):
    """A ``classmethod``'s positions come after ``cls`` (its callers do not hand it), and a
    list its class binds is kept by the class (``cls.records``); a ``staticmethod``'s start at
    its first parameter."""
    m = _module(tmp_path, """
        class Tracker:
            records = []
            name = "t"

            @classmethod
            def log(cls, value):
                cls.records.append(value)

            @classmethod
            def log_into(cls, store, value):
                store.append(value)

            @classmethod
            def not_a_list(cls, value):
                cls.name.append(value)

            @staticmethod
            def push(store, value):
                store.append(value)
        """)
    cls = m.defs["Tracker"]
    assert logs(cls.method("log")) == {0: "cls.records"}
    assert collects(cls.method("log_into")) == {1: 0}
    assert logs(cls.method("not_a_list")) == {}
    assert collects(cls.method("push")) == {1: 0}
