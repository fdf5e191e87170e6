"""The graph facts of the semantic core (``semantic.graph``) and the project index's graph
summaries (``semantic.index.summaries``), asked directly; and the TEN501 shapes built on them
through flake8 and the CLI, across the files of a project."""
import ast
import contextlib
import json
import os
import textwrap

import pytest

from flake8_tensorcopy.semantic import graph
from flake8_tensorcopy.semantic.graph_terms import decorated_grad, grad_effect, leaf_attributes, \
    leaf_properties, makes_leaf, module_attributes
from flake8_tensorcopy.semantic.index import FileContext
from flake8_tensorcopy.semantic.index.summaries import GraphSummary

from .conftest import ROOT, flake8, tensorcopy


def _function(src):
    tree = ast.parse(textwrap.dedent(src))
    return tree, tree.body[0]


def _value_at(fn, line):
    """The accumulated (or appended) value of the statement on ``line``."""
    for node in ast.walk(fn):
        if isinstance(node, ast.stmt) and node.lineno == line:
            if isinstance(node, ast.AugAssign):
                return node.value
            if isinstance(node, ast.Expr):
                return node.value.args[0]
            if isinstance(node, ast.Assign):
                return node.value
    raise AssertionError(f"no statement on line {line}")


def _why(src, line, oracle=None):
    _, fn = _function(src)
    fact = graph.scope_graph(fn, oracle).attached(_value_at(fn, line))
    return None if fact is None else (fact.why, fact.needs_grad)


TRAIN = """\
def train(model, loader, opt):
    total = 0.0
    for x, y in loader:
        out = model(x)
        rec = F.mse_loss(out, y)
        kl = torch.sum(out.pow(2))
        n = len(x) * 0.5
        loss = rec + 0.1 * kl + n
        loss.backward()
        total += loss
        total += rec
        total += kl
        total += n
        total += loss.item()
        total += loss.detach()
        total += float(loss)
        hist.append({"loss": loss, "n": 1})
        hist.append((loss, 3))
        hist.append([loss.item(), 3])
        loss = loss.item()
        total += loss
"""


@pytest.mark.parametrize("line, why", [
    (10, graph.DIFFERENTIATED),  # the differentiated value itself
    (11, graph.SIBLING), (12, graph.SIBLING),  # its terms, bound to computed values
    (13, None),  # a term that is a Python number
    (14, None), (15, None), (16, None),  # item(), detach(), float()
    (17, graph.DIFFERENTIATED), (18, graph.DIFFERENTIATED),  # containers holding it
    (19, None),  # a container of numbers
    (21, None),  # rebound to a number before the read
])
def test_attached_values_after_backward(line, why):
    got = _why(TRAIN, line)
    assert (got[0] if got else None) == why
    if got:
        assert got[1] is False  # backward proves the graph whatever the grad mode


def test_backward_after_the_accumulation_and_through_scaling():
    src = """\
    def f(model, loader, scaler, acc):
        running = 0.0
        for x in loader:
            loss = model(x).mean()
            running += loss
            scaler.scale(loss / 4).backward()
            out = model(x)
            acc.backward(out["loss"])
            running += out["loss"]
            running += out["other"]
    """
    assert _why(src, 5) == (graph.DIFFERENTIATED, False)
    assert _why(src, 9) == (graph.DIFFERENTIATED, False)
    assert _why(src, 10) is None  # another entry of the dict: nothing known


def test_a_path_written_after_is_not_a_fact():
    src = """\
    def f(model, loader):
        total = 0
        for x in loader:
            out = model(x)
            out["loss"].backward()
            out["loss"] = out["loss"].item()
            total += out["loss"]
    """
    assert _why(src, 7) is None


def test_reaching_bindings_join_over_branches_and_loops():
    src = """\
    def f(model, loader, flag):
        total = 0
        for x in loader:
            loss = model(x).sum()
            if flag:
                loss = 0.0
            total += loss
            loss.backward()
    """
    # ``loss = 0.0`` reaches the read too: a number literal keeps no graph, so the value is the
    # attached loss or that number (tenth session: before, any literal made it unknown)
    assert _why(src, 7) == (graph.DIFFERENTIATED, False)
    # a binding that is neither attached nor a number literal still makes it unknown
    after = """\
    def f(model, loader, flag, other):
        total = 0
        for x in loader:
            loss = model(x).sum()
            loss.backward()
            if flag:
                loss = other(x)
            total += loss
    """
    assert _why(after, 8) is None
    assert _why(after.replace("loss = other(x)", "loss = 0.0"), 8) == (graph.DIFFERENTIATED, False)
    assert _why(after.replace("loss = other(x)", "loss = 0.0").replace(
        "loss = model(x).sum()\n        loss.backward()", "loss = 1.0"), 7) is None  # numbers only
    src2 = """\
    def f(model, loader, flag):
        total = 0
        for x in loader:
            if flag:
                loss = model(x).sum()
            else:
                loss = model(x).mean()
            loss.backward()
            total += loss
    """
    assert _why(src2, 9) == (graph.DIFFERENTIATED, False)


class _Forward(graph.Oracle):
    """``model(...)`` runs a module with parameters; ``crit(...)`` a loss module."""

    def call(self, node):
        name = graph.dotted(node.func)
        if name == "model":
            return "forward"
        if name == "crit":
            return "through"
        return super().call(node)


def test_forward_values_need_grad_on():
    src = """\
    def f(model, crit, loader):
        outs = []
        for x, y in loader:
            out = model(x)
            outs.append(out)
            outs.append(crit(out, y))
            outs.append(out.softmax(-1))
            outs.append(torch.cat((out, out)))
            outs.append(out.argmax(1))
            outs.append(helper(out))
    """
    for line in (5, 6, 7, 8):
        assert _why(src, line, _Forward()) == (graph.FORWARD, True), line
    assert _why(src, 9, _Forward()) is None  # an index tensor
    assert _why(src, 10, _Forward()) is None  # an unknown function may return a number
    assert _why(src, 5) is None  # without the oracle nothing is known of ``model``


class _FrozenKeys(_Forward):
    """``keys(...)`` runs a module the file freezes by name; ``model(...)`` one it trains."""

    def call(self, node):
        return "forward" if graph.dotted(node.func) == "keys" else super().call(node)

    def frozen(self, func):
        return graph.dotted(func) == "keys"


def test_a_frozen_modules_output_has_a_graph_only_through_its_inputs():
    src = """\
    def f(model, keys, loader):
        outs = []
        for x, y in loader:
            out = model(x)
            outs.append(keys(y))
            outs.append(keys(out))
            outs.append(keys(y) * 2)
            outs.append(keys(input=out).mean())
    """
    assert _why(src, 5, _FrozenKeys()) is None  # raw data in: no graph out
    assert _why(src, 6, _FrozenKeys()) == (graph.FORWARD, True)  # the trained module's output
    assert _why(src, 7, _FrozenKeys()) is None
    assert _why(src, 8, _FrozenKeys()) == (graph.FORWARD, True)
    assert _why(src, 5, _TrainedKeys()) == (graph.FORWARD, True)  # not frozen: any forward


class _TrainedKeys(_FrozenKeys):
    def frozen(self, func):
        return False


def test_items_of_a_list_comprehension_are_what_its_element_is_derived_from():
    src = """\
    def f(model, augs, loader):
        outs = []
        for x in loader:
            outs.append(torch.stack([model(a(x)) for a in augs]))
            outs.append([model(a(x)) for a in augs])
            outs.append(torch.stack([a(x) for a in augs]))
            outs.append(torch.stack([model(a(x)).detach() for a in augs]))
            outs.append(torch.stack([v for v in x]))
    """
    for line in (4, 5):
        assert _why(src, line, _Forward()) == (graph.FORWARD, True), line
    for line in (6, 7, 8):  # no model ran; each item detached; names the comprehension binds
        assert _why(src, line, _Forward()) is None, line


def test_a_fresh_list_holds_what_the_scope_appends_to_it():
    src = """\
    def f(model, loader, given):
        kept = []
        for x in loader:
            vals, nums = [], []
            other = list()
            vals.append(model(x))
            nums.append(model(x).item())
            other.extend([model(x)])
            kept.extend(vals)
            kept.extend(nums)
            kept.extend(other)
            kept.extend(given)
    """
    for line in (9, 11):
        got = _why(src, line, _Forward())
        assert got == (graph.HOLDS, True), line
    for line in (10, 12):  # numbers; a parameter
        assert _why(src, line, _Forward()) is None, line
    rebound = src.replace("            other = list()\n", "            other = list()\n"
                          "            other = make()\n")
    assert _why(rebound, 12, _Forward()) is None  # a binding that makes no fresh empty list


def test_an_optimizer_step_with_a_closure_gives_back_what_it_differentiated():
    src = """\
    def f(model, opt, loader):
        for x in loader:
            def closure():
                loss = model(x).sum()
                loss.backward()
                return loss
            def numbers():
                out = model(x).sum()
                out.backward()
                return out.item()
            hist.append(opt.step(closure))
            hist.append(opt.step(numbers))
            hist.append(opt.step(lambda: model(x).sum()))
    """
    assert _why(src, 11) == (graph.RETURNED, False)
    assert _why(src, 12) is None and _why(src, 13) is None


def test_grad_mode_of_with_blocks_and_decorators():
    src = """\
    @torch.no_grad()
    def f(model, x):
        with torch.enable_grad():
            a = model(x)
        b = model(x)
        with torch.set_grad_enabled(flag):
            c = model(x)
    """
    tree, fn = _function(src)
    g = graph.scope_graph(fn)
    stmts = {s.lineno: s for s in ast.walk(fn) if isinstance(s, ast.Assign)}
    assert g.grad_mode(stmts[4]) == "on"
    assert g.grad_mode(stmts[5]) == "off"
    assert g.grad_mode(stmts[7]) == "unknown"
    assert decorated_grad(fn) == "off"
    parse = lambda s: ast.parse(s, mode="eval").body  # noqa: E731
    assert grad_effect(parse("torch.inference_mode()")) == "off"
    assert grad_effect(parse("torch.inference_mode(False)")) == "on"
    assert grad_effect(parse("torch.set_grad_enabled(False)")) == "off"
    assert grad_effect(parse("torch.autocast('cuda')")) is None
    assert decorated_grad(ast.parse("@functools.wraps(g)\ndef h(): pass").body[0]) == "unknown"
    # a static or class method is the function itself: no grad mode of its own
    assert decorated_grad(ast.parse("@staticmethod\ndef h(): pass").body[0]) is None
    assert decorated_grad(ast.parse("@classmethod\ndef h(c): pass").body[0]) is None
    assert decorated_grad(ast.parse(
        "@staticmethod\n@torch.no_grad()\ndef h(): pass").body[0]) == "off"


SUMMARIES = """\
import torch


def train_step(model, batch, opt):
    loss = model(batch).sum()
    loss.backward()
    opt.step()
    return loss


def train_pair(model, batch):
    loss = model(batch).sum()
    loss.backward()
    return loss, loss.item()


def step_number(model, batch):
    loss = model(batch).sum()
    loss.backward()
    return loss.item()


def backward_of(loss, scale=1.0):
    (loss / scale).backward()


def backward_of_product(a, b):
    (a * b).backward()


def calls_step(model, batch, opt):
    return train_step(model, batch, opt)


def forward_only(model, batch):
    return model(batch)


class Meter:
    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n

    def add(self, val):
        self.values.append(val)

    def reset_then_add(self, val):
        self.values = []
        self.values.append(val)

    def numbers(self, val):
        self.sum += val.item()

    def quiet(self, val):
        with torch.no_grad():
            self.sum += val
"""


@pytest.fixture
def summaries(tmp_path):
    path = tmp_path / "mod.py"
    path.write_text(SUMMARIES)
    ctx = FileContext(str(path), ast.parse(SUMMARIES), SUMMARIES)
    facts = ctx.facts()
    yield facts
    ctx.release()


GRAD_STEPS = """
import torch.nn.functional as F


def step(model, batch, opt):
    out = model(batch)
    loss = F.mse_loss(out, batch)
    loss.backward()
    opt.step()
    return loss.item(), out


def step_in_with(model, batch, scaler):
    with torch.autocast("cpu"):
        out = model(batch)
        loss = out.pow(2).mean()
    scaler.scale(loss).backward()
    return out


def step_if(model, batch, train):
    out = model(batch)
    if train:
        out.sum().backward()
    return out


def step_early(model, batch):
    out = model(batch)
    if out.isnan().any():
        return out
    out.sum().backward()
    return out


def forward_only(model, batch):
    return model(batch)
"""


@contextlib.contextmanager
def _graph_summaries(tmp_path, source):
    """``get(name)``: the graph summary of function ``name`` of a module holding ``source``."""
    path = tmp_path / "mod.py"
    path.write_text(source)
    ctx = FileContext(str(path), ast.parse(source), source)
    try:
        yield lambda name: ctx.facts().defs[name].graph_summary()
    finally:
        ctx.release()


def test_a_step_that_differentiates_on_every_call_proves_grad_on_where_it_is_called(tmp_path):
    with _graph_summaries(tmp_path, GRAD_STEPS) as get:
        assert get("step").proves_on and get("step_in_with").proves_on
        for name in ("step_if", "step_early", "forward_only"):
            assert not get(name).proves_on, name
        # what it returns of a call of its parameter: a forward pass where the caller passes
        # a module (origin "c0"), in the mode it was called in; and, where the caller passes a
        # loss, what that computes from the argument ``x`` it is handed (origin "t0:p1")
        assert get("step").sources["[1]"] == frozenset({("c0", ""), ("t0:p1", "*")})
        assert get("forward_only").sources[""] == frozenset({("c0", ""), ("t0:p1", "*")})


GENERATORS = """
def gen(model, opt, batches):
    for x in batches:
        loss = model(x).sum()
        loss.backward()
        yield loss


def numbers(model, batches):
    for x in batches:
        loss = model(x).sum()
        loss.backward()
        yield loss.item()


def outputs(model, batches):
    for x in batches:
        yield model(x)


def sent(model, batches):
    for x in batches:
        loss = model(x).sum()
        loss.backward()
        got = yield loss


def delegating(model, opt, batches):
    yield from gen(model, opt, batches)


def pairs(model, batches):
    for x in batches:
        loss = model(x).sum()
        loss.backward()
        yield x, loss


def lengths(model, batches):
    for x in batches:
        loss = model(x).sum()
        loss.backward()
        yield x, loss
        yield x, loss, 0
"""


def test_a_generator_that_yields_what_it_differentiated(tmp_path):
    with _graph_summaries(tmp_path, GENERATORS) as get:
        assert get("gen").yields == {-1}
        assert get("pairs").yields == {1}  # the tuple's item it differentiated
        for name in ("numbers", "outputs", "sent", "delegating", "lengths"):
            assert not get(name).yields, name


def test_function_summaries(summaries):
    get = lambda name: summaries.defs[name].graph_summary()  # noqa: E731
    assert get("train_step").returns_item(None)
    assert not get("train_step").differentiates(0)
    pair = get("train_pair")
    assert not pair.returns_item(None) and pair.returns_item(0) and not pair.returns_item(1)
    assert not get("step_number").returns_item(None)
    assert get("backward_of").differentiates(0) and not get("backward_of").differentiates(1)
    # of two plain names either may be the tensor: neither is proven
    assert not get("backward_of_product").differentiates(0)
    assert not get("backward_of_product").differentiates(1)
    assert get("calls_step").returns_item(None)  # through the callee's summary
    assert not get("forward_only").returns_item(None)  # attached only if grad is on: not proven


def test_method_summaries(summaries):
    meter = summaries.defs["Meter"]
    assert meter.method("update").graph_summary().accumulates == {0: "self.sum", 1: "self.count"}
    assert meter.method("add").graph_summary().accumulates == {0: "self.values"}
    for quiet in ("reset_then_add", "numbers", "quiet"):
        assert meter.method(quiet).graph_summary().accumulates == {}, quiet


def test_summaries_are_made_once(summaries, monkeypatch):
    fn = summaries.defs["train_step"]
    first = fn.graph_summary()
    from flake8_tensorcopy.semantic.index import summaries as module
    monkeypatch.setattr(module, "_summarise", lambda f: pytest.fail("made twice"))
    assert fn.graph_summary() is first


def test_a_cycle_of_calls_reads_nothing_for_the_call_that_closes_it(tmp_path):
    src = textwrap.dedent("""\
        def a(model, x):
            return b(model, x)


        def b(model, x):
            if x is None:
                return a(model, x)
            loss = model(x).sum()
            loss.backward()
            return loss
        """)
    path = tmp_path / "cyc.py"
    path.write_text(src)
    ctx = FileContext(str(path), ast.parse(src), src)
    try:
        # ``a`` asks ``b``, which asks ``a`` back: that call reads nothing (unknown stays
        # unknown), so ``b`` is not proven to return a differentiated value, nor ``a``
        assert not ctx.facts().defs["a"].graph_summary().returns_item(None)
        assert not ctx.facts().defs["b"].graph_summary().returns_item(None)
    finally:
        ctx.release()


# ---- through flake8 and the CLI, across files ----------------------------------------------
STEPS = """\
import torch


def train_step(model, batch, optimizer):
    optimizer.zero_grad()
    loss = torch.nn.functional.mse_loss(model(batch[0]), batch[1])
    loss.backward()
    optimizer.step()
    return loss


class Meter:
    def __init__(self):
        self.sum = 0.0
        self.count = 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n
"""
TRAINER = """\
import torch

from steps import Meter, train_step


def fit(model, loader, optimizer):
    total = 0.0
    meter = Meter()
    for batch in loader:
        loss = train_step(model, batch, optimizer)
        total += loss
        meter.update(loss, len(batch))
        total += loss.item()
    return total
"""


def test_summaries_reach_across_files(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    (root / "setup.cfg").write_text("[metadata]\nname = proj\n")
    (root / "steps.py").write_text(STEPS)
    (root / "trainer.py").write_text(TRAINER)
    proc = tensorcopy("check", "--output-format", "json", "--exit-zero", "--select", "TEN501",
                      ".", cwd=str(root))
    assert proc.returncode == 0, proc.stderr
    got = sorted((os.path.basename(d["filename"]), d["location"]["row"], d["message"])
                 for d in json.loads(proc.stdout))
    assert [(f, r) for f, r, _ in got] == [("trainer.py", 11), ("trainer.py", 12)]
    assert "`train_step()`" in got[0][2]
    assert "`update()` adds it into `self.sum`" in got[1][2]
    proc = flake8("--select", "TEN501", "trainer.py", cwd=str(root))
    assert proc.stdout.count("TEN501") == 2, proc.stdout + proc.stderr


LOSSES = """\
import torch


class FocalLoss(torch.nn.Module):
    def forward(self, pred, target):
        c_loss = (pred - target).pow(2).mean()
        r_loss = (pred - target).abs().mean()
        loss = c_loss + r_loss
        return loss, c_loss, r_loss


def plain_loss(pred, target):
    return 0.0, 0.0, 0.0
"""
FIT = """\
import torch

from losses import FocalLoss, plain_loss


def fit_one_epoch(net, focal_loss, optimizer, gen):
    total_c_loss = 0
    total_r_loss = 0
    for x, y in gen:
        optimizer.zero_grad()
        loss, c_loss, r_loss = focal_loss(net(x), y)
        loss.backward()
        optimizer.step()
        total_c_loss += c_loss
        total_r_loss += r_loss.item()
    return total_c_loss


def fit_mixed(net, focal_loss, optimizer, gen):
    total_c_loss = 0
    for x, y in gen:
        loss, c_loss, r_loss = focal_loss(net(x), y)
        loss.backward()
        total_c_loss += c_loss
    return total_c_loss


if __name__ == "__main__":
    net = torch.nn.Linear(3, 3)
    crit = FocalLoss()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    fit_one_epoch(net, crit, opt, [])
    fit_one_epoch(net, crit, opt, [])
    fit_mixed(net, crit, opt, [])
    fit_mixed(net, plain_loss, opt, [])
"""


def test_a_parameter_every_script_level_call_passes_a_project_module(tmp_path):
    """``fit_one_epoch(net, crit, ...)`` called at script level after its ``def`` (the zoo's
    retinanet and efficientdet): the parameter is the project module every call passes, so its
    ``forward``'s summary names the loss's terms. Silent: a term read with ``.item()``, and a
    function whose callers pass a module and a plain function (unknown)."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "setup.cfg").write_text("[metadata]\nname = proj\n")
    (root / "losses.py").write_text(LOSSES)
    (root / "fit.py").write_text(FIT)
    proc = tensorcopy("check", "--output-format", "json", "--exit-zero", "--select", "TEN501",
                      ".", cwd=str(root))
    assert proc.returncode == 0, proc.stderr
    got = sorted((os.path.basename(d["filename"]), d["location"]["row"], d["message"])
                 for d in json.loads(proc.stdout))
    assert [(f, r) for f, r, _ in got] == [("fit.py", 14)], got
    assert "a term of the loss differentiated on line 12" in got[0][2]


DICT_TERMS = """\
import math

import torch


class RateDistortionLoss(torch.nn.Module):
    def forward(self, output, target):
        out = {}
        out["bpp_loss"] = output.abs().mean()
        out["mse_loss"] = (output - target).pow(2).mean()
        out["loss"] = 0.01 * out["mse_loss"] + out["bpp_loss"]
        out["psnr"] = 10 * torch.log10(1 / out["mse_loss"])
        out["psnr_n"] = 10 * math.log10(1 / out["mse_loss"].item())
        out["aux"] = output.mean()
        out["aux"] = out["aux"].detach()
        out["total"] = out["loss"] + out["aux"]
        return out


class AverageMeter:
    def __init__(self):
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n


def train_one_epoch(model, criterion, loader, optimizer):
    bpp = AverageMeter()
    psnr = AverageMeter()
    aux = AverageMeter()
    for d in loader:
        optimizer.zero_grad()
        out_criterion = criterion(model(d), d)
        out_criterion["loss"].backward()
        optimizer.step()
        bpp.update(out_criterion["bpp_loss"])
        psnr.update(out_criterion["psnr"])
        aux.update(out_criterion["aux"])
        psnr.update(out_criterion["psnr_n"])


def main():
    model = torch.nn.Linear(3, 3)
    criterion = RateDistortionLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train_one_epoch(model, criterion, [], optimizer)
"""


def test_keys_of_a_returned_dict_that_are_terms_of_its_differentiated_key(tmp_path):
    """``out_criterion["loss"].backward()`` where the criterion's ``forward`` wrote
    ``out["loss"] = w * out["mse_loss"] + out["bpp_loss"]`` (the zoo's LIC-HPCM): the other
    keys of that sum are the loss's terms, and a key computed from a term through operations
    that keep a graph is attached too (psnr). Silent: a key computed from a term's number
    (``.item()``), a key written twice (its last value is detached)."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "setup.cfg").write_text("[metadata]\nname = proj\n")
    (root / "train.py").write_text(DICT_TERMS)
    proc = tensorcopy("check", "--output-format", "json", "--exit-zero", "--select", "TEN501",
                      ".", cwd=str(root))
    assert proc.returncode == 0, proc.stderr
    got = sorted((d["location"]["row"], d["message"]) for d in json.loads(proc.stdout))
    assert [r for r, _ in got] == [39, 40], got
    assert "a term of the loss differentiated on line 37" in got[0][1]
    assert "computed from the loss differentiated on line 37, or from a term" in got[1][1]
    proc = flake8("--select", "TEN501", "train.py", cwd=str(root))
    assert proc.stdout.count("TEN501") == 2, proc.stdout + proc.stderr


SUMMED = """\
import torch


class Trainer:
    def train_epoch(self, train_data):
        losses_list = []
        others = []
        for interaction in train_data:
            self.optimizer.zero_grad()
            losses = self.model.calculate_loss(interaction)
            loss = sum(losses) if isinstance(losses, tuple) else losses
            loss.backward()
            self.optimizer.step()
            losses_list.append(losses)
            extra = self.model.calculate_loss(interaction)
            other = sum(extra) if isinstance(extra, tuple) else losses
            other.backward()
            others.append(extra)
            terms = self.model.calculate_terms(interaction)
            sum(terms).backward()
            others.append(terms)
        return losses_list, others
"""


def test_the_value_whose_sum_or_itself_is_differentiated(tmp_path):
    """``loss = sum(losses) if isinstance(losses, tuple) else losses; loss.backward()`` (the
    zoo's RecBole): whichever branch ran, ``losses`` is the loss or the tuple of its terms, so
    appending it keeps the graph (reported as a container: no ``.detach()`` fix), as does the
    tuple of ``sum(terms).backward()``. Silent: the
    branches name different values (``extra`` may be the one not differentiated)."""
    (tmp_path / "t.py").write_text(SUMMED)
    proc = tensorcopy("check", "--output-format", "json", "--exit-zero", "--select", "TEN501",
                      "--no-cache", "t.py", cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    got = [(d["location"]["row"], d["message"], d.get("fix")) for d in json.loads(proc.stdout)]
    assert [r for r, _, _ in got] == [14, 21], got
    assert "the loss differentiated on line 20, or the tuple of its terms" in got[1][1]
    assert "the loss differentiated on line 12, or the tuple of its terms" in got[0][1]
    assert not got[0][2] and not got[1][2]
    assert got[0][1].endswith("; accumulate each tensor in it `.detach()`-ed"), got[0][1]


def test_call_sites_after_the_definition_at_script_level(tmp_path):
    """The module's own ``def`` of the function is no rebinding of its name: the script-level
    calls after it are its call sites (a later rebinding still hides them)."""
    from flake8_tensorcopy.semantic.index import resolve

    src = ("import torch\n\n\ndef train(model, k):\n    return model\n\n\n"
           "train(torch.nn.Linear(2, 2), 1)\n")
    path = tmp_path / "m.py"
    path.write_text(src)
    facts = resolve.ProjectIndex().load_path(str(path))
    assert set(facts.param_shapes("train")) == {"model", "k"}
    rebound = tmp_path / "r.py"
    rebound.write_text(src.replace("\n\n\ntrain(", "\n\ntrain = print\ntrain("))
    facts = resolve.ProjectIndex().load_path(str(rebound))
    assert facts.param_shapes("train") == {}


def test_script_level_call_sites_see_the_modules_own_classes(tmp_path):
    """At script level a ``class`` (or ``def``) statement binds the module's own definition:
    ``net = Net()`` under ``if __name__ == "__main__":`` is an instance of it at the call sites
    after it (it read as unknown, so no parameter kind came from the script's calls). A name
    defined twice is unknown before its last definition."""
    from flake8_tensorcopy.semantic.index import resolve
    from flake8_tensorcopy.semantic.index.evaluate import ProjInstance

    src = ("import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n"
           "    def forward(self, x):\n        return x\n\n\n"
           "def features(model, k):\n    return model\n\n\n"
           "if __name__ == '__main__':\n    net = Net()\n    features(net, 1)\n")
    path = tmp_path / "m.py"
    path.write_text(src)
    facts = resolve.ProjectIndex().load_path(str(path))
    assert type(facts.param_shapes("features").get("model")) is ProjInstance
    twice = tmp_path / "t.py"
    twice.write_text(src.replace("\n\n\ndef features", "\n\nnet = Net()\n\n\nclass Net:\n"
                                 "    pass\n\n\ndef features").replace(
        "    net = Net()\n", ""))
    facts = resolve.ProjectIndex().load_path(str(twice))
    assert "model" not in facts.param_shapes("features")  # the first Net's instance


def test_a_long_chain_of_bindings_is_unknown_not_an_error():
    lines = ["def f(model, x, opt):", "    total = 0", "    for b in x:", "        h = model(b)"]
    lines += ["        h = h + 1"] * 400
    lines += ["        h.backward()", "        total += h", "        g = model(b)"]
    lines += ["        g = g * 2"] * 400
    lines += ["        total += g"]
    _, fn = _function("\n".join(lines) + "\n")
    g = graph.scope_graph(fn, _Forward())
    acc = [s for s in ast.walk(fn) if isinstance(s, ast.AugAssign)]
    # the differentiated binding is marked whatever the chain; the other is too long to follow
    assert g.attached(acc[0].value).why == graph.DIFFERENTIATED
    assert g.attached(acc[1].value) is None
    # and through flake8's door the file is analysed, not skipped as too deep
    from flake8_tensorcopy import lint_source
    src = "import torch\n" + "\n".join(lines) + "\n"
    assert [d.line for d in lint_source(src, "long.py") if d.code == "TEN501"] == [407]


NAMED = """\
import collections

import torch
from torch.nn import functional as F

LossTuple = collections.namedtuple("LossTuple", ["loc", "cls", "total"])
Spaced = collections.namedtuple("Spaced", "a, b")


class Trainer(torch.nn.Module):
    def forward(self, x, y):
        out = self.net(x)
        loc = F.mse_loss(out, y)
        cls = torch.nn.CrossEntropyLoss()(out, y)
        losses = [loc, cls]
        losses = losses + [sum(losses)]
        return LossTuple(*losses)

    def train_step(self, x, y):
        losses = self.forward(x, y)
        losses.total.backward()
        return losses

    def by_index(self, x, y):
        losses = self.forward(x, y)
        losses[2].backward()
        return losses

    def pair(self, x):
        return Spaced(self.net(x), 0)
"""


def test_namedtuple_items_fields_and_the_terms_of_a_sum_through_returns(tmp_path):
    """``forward`` returns ``LossTuple(*losses)`` built from ``[loc, cls]`` and their ``sum``:
    item 2 is the sum of items 0 and 1, by index and by field; a method differentiating
    ``losses.total`` (or ``losses[2]``) returns all three items attached, with the fields."""
    path = tmp_path / "named.py"
    path.write_text(NAMED)
    ctx = FileContext(str(path), ast.parse(NAMED), NAMED)
    try:
        cls = ctx.facts().defs["Trainer"]
        fwd = cls.method("forward").graph_summary()
        assert fwd.fields == ("loc", "cls", "total")
        assert fwd.terms == {2: frozenset({0, 1})} and not fwd.items
        assert fwd.key_terms[".total"] == frozenset({".loc", ".cls"})
        assert fwd.key_terms["[2]"] == frozenset({"[0]", "[1]"})
        for name in ("train_step", "by_index"):
            s = cls.method(name).graph_summary()
            assert s.items == frozenset({0, 1, 2}) and not s.returns, name
            assert s.fields == ("loc", "cls", "total")
            assert s.returns_path(".cls") and s.returns_path("[0]")
            assert not s.returns_path(".other") and not s.returns_path("[3]")
        assert cls.method("pair").graph_summary().fields == ("a", "b")
    finally:
        ctx.release()


HELD = """\
def train(module, loader, opt):
    for batch in loader:
        out = module.training_step(batch)
        out["loss"].backward()
        outputs.append(out)
        total += out[1]
        total += out["acc"]
        alias = out
        kept.append(alias)
        other = module.training_step(batch)
        other["loss"] = other["loss"].detach()
        kept.append(other)
"""


def test_a_container_holding_a_differentiated_item():
    """``out["loss"].backward()``: ``out`` holds an attached item (HOLDS, not proven for the rest:
    an unknown item of it is not attached); a root whose paths are written holds nothing known."""
    assert _why(HELD, 5) == (graph.HOLDS, False)
    assert _why(HELD, 6) is None
    assert _why(HELD, 7) is None
    assert _why(HELD, 9) == (graph.HOLDS, False)
    assert _why(HELD, 12) is None


def test_derived_from_a_path():
    _, fn = _function("def f(out):\n    a = 10 * (torch.log(1 / out['mse']) / np.log(10))\n"
                      "    b = math.log10(1 / out['mse'].item())\n    c = out['bpp'] + out['x']\n"
                      "    d = g(out['mse'])\n")
    g = graph.scope_graph(fn)
    a, b, c, d = (s.value for s in fn.body)
    assert g.derived_from(a, "out", "['mse']")
    assert not g.derived_from(b, "out", "['mse']")
    assert g.derived_from(c, "out", "['x']") and not g.derived_from(c, "out", "['mse']")
    assert not g.derived_from(d, "out", "['mse']")  # an unknown function


METERS = """\
import horovod.torch as hvd
import torch


class Track:
    def update(self, losses):
        for key in losses:
            self.totals[key] += losses[key]

    def update_numbers(self, losses):
        for key in losses:
            self.totals[key] += losses[key].item()

    def set_item(self, losses):
        for key in losses:
            self.totals[key] = losses[key]

    def reduced(self, val):
        self.sum += hvd.allreduce(val.cpu(), name="x")

    def reduced_detached(self, val):
        self.sum = self.sum + hvd.allreduce(val.detach().cpu(), name="x")

    def unknown_call(self, val):
        self.sum += summarise(val)

    def first_item(self, pair):
        self.sum += pair[0]

    def some_keys(self, losses):
        for key in self.keys:
            self.totals[key] += losses[key]

    def every_pair(self, losses):
        for key, value in losses.items():
            self.totals[key] = self.totals[key] + losses[key]

    def through_own(self, val):
        self.reduced(val)

    def through_own_number(self, val):
        self.reduced(val.item())


class Meter:
    def update(self, val, n=1):
        self.sum += val * n


class Tracker:
    def __init__(self):
        self.loss_meter = Meter()
        self.other = make_meter()

    def update(self, loss, n):
        self.loss_meter.update(loss, n)

    def update_detached(self, loss):
        self.loss_meter.update(loss.detach())

    def update_unknown(self, loss):
        self.other.update(loss)

    def quiet(self, loss):
        with torch.no_grad():
            self.loss_meter.update(loss)


def criterion(output, target):
    out = {}
    out["mse"] = (output - target).pow(2).mean()
    out["loss"] = out["mse"] + output.abs().mean()
    out["psnr"] = 10 * torch.log10(1 / out["mse"])
    out["twice"] = 2 * out["psnr"]
    out["n"] = float(out["mse"])
    return out
"""


def test_summaries_of_meters_and_derived_keys(tmp_path):
    """A method adding the items of its parameter into an item of ``self.X``, or its parameter
    through an autograd-aware call (horovod's ``allreduce``, through the module's import);
    not its items' numbers, not a plain item set, not an unknown call, not one item or some
    keys of it (the attached one may be another). Through a method it calls on ``self`` or on a
    meter it holds (``self.loss_meter = Meter()``), by that method's summary. A returned dict's keys
    computed from another key through operations that keep a graph."""
    path = tmp_path / "mod.py"
    path.write_text(METERS)
    ctx = FileContext(str(path), ast.parse(METERS), METERS)
    try:
        track = ctx.facts().defs["Track"]
        acc = {m: track.method(m).graph_summary().accumulates for m in
               ("update", "update_numbers", "set_item", "reduced", "reduced_detached",
                "unknown_call", "first_item", "some_keys", "every_pair")}
        assert acc == {"update": {0: "self.totals"}, "update_numbers": {}, "set_item": {},
                       "reduced": {0: "self.sum"}, "reduced_detached": {}, "unknown_call": {},
                       "first_item": {}, "some_keys": {}, "every_pair": {0: "self.totals"}}
        own = {m: track.method(m).graph_summary().accumulates
               for m in ("through_own", "through_own_number")}
        assert own == {"through_own": {0: "self.sum"}, "through_own_number": {}}
        tracker = ctx.facts().defs["Tracker"]
        held = {m: tracker.method(m).graph_summary().accumulates
                for m in ("update", "update_detached", "update_unknown", "quiet")}
        assert held == {"update": {0: "self.loss_meter.sum", 1: "self.loss_meter.sum"},
                        "update_detached": {}, "update_unknown": {}, "quiet": {}}
        s = ctx.facts().defs["criterion"].graph_summary()
        assert s.key_derived == {"['mse']": frozenset({"['psnr']", "['loss']"}),
                                 "['psnr']": frozenset({"['twice']"})}
    finally:
        ctx.release()


NAMED_FIT = """\
import torch

from named import Trainer


def fit(net, optimizer, gen):
    trainer = Trainer()
    total = 0
    cls_total = 0
    numbers = 0
    for x, y in gen:
        losses = trainer.train_step(x, y)
        loc, cls, tot = losses
        total += tot
        cls_total = cls_total + losses.cls
        numbers += loc.item()
    return total, cls_total, numbers


if __name__ == "__main__":
    fit(None, None, [])
"""


def test_items_of_a_returned_namedtuple_across_files(tmp_path):
    """faster-rcnn's shape: a method of a class of another module returns the namedtuple whose
    field it differentiated; the caller unpacks it (a name bound to the call, then unpacked:
    the pre-filter keeps that loop) and reads a field."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "setup.cfg").write_text("[metadata]\nname = proj\n")
    (root / "named.py").write_text(NAMED)
    (root / "fit.py").write_text(NAMED_FIT)
    proc = tensorcopy("check", "--output-format", "json", "--exit-zero", "--select", "TEN501",
                      ".", cwd=str(root))
    assert proc.returncode == 0, proc.stderr
    got = sorted((os.path.basename(d["filename"]), d["location"]["row"])
                 for d in json.loads(proc.stdout))
    assert got == [("fit.py", 14), ("fit.py", 15)], got
    proc = flake8("--select", "TEN501", "fit.py", cwd=str(root))
    assert proc.stdout.count("TEN501") == 2, proc.stdout + proc.stderr


def test_a_dict_whose_item_was_differentiated_holds_it():
    """``out["loss"].backward()``: ``out`` holds an attached value (packnet-sfm keeps it for the
    epoch's end), unless the item is rewritten or deleted or a method changes the dict."""
    src = """\
    def f(module, loader):
        outs = []
        for i, x in enumerate(loader):
            out = module.step(x)
            out["loss"].backward()
            outs.append(out)
            a = module.step(x)
            a["loss"].backward()
            del a["loss"]
            outs.append(a)
            b = module.step(x)
            b["loss"].backward()
            b.pop("loss")
            outs.append(b)
            c = module.step(x)
            c["loss"] = c["loss"].detach()
            outs.append(c)
    """
    assert _why(src, 6) == (graph.HOLDS, False)
    assert _why(src, 10) is None and _why(src, 14) is None and _why(src, 17) is None


def test_an_item_of_a_container_that_holds_one_is_unknown():
    src = """\
    def f(module, loader):
        total = 0
        for x in loader:
            out = module.step(x)
            out[0].backward()
            total += out[1]
            total += out[0]
    """
    assert _why(src, 6) is None
    assert _why(src, 7) == (graph.DIFFERENTIATED, False)


TRACKS = """\
import horovod.torch as hvd


class LossesTrackEpoch:
    def __init__(self):
        self.train_losses = {}

    def update_train_losses(self, loss):
        for key in loss:
            self.train_losses[key] += loss[key]

    def update_numbers(self, loss):
        for key in loss:
            self.train_losses[key] += loss[key].item()


class Metrics:
    def __init__(self):
        self.losses_track = LossesTrackEpoch()


class Reduced:
    def __init__(self):
        self.sum = 0

    def update(self, val):
        self.sum += hvd.allreduce(val.cpu(), name="loss")
"""
TRAIN_TRACKS = """\
import torch

from common.metrics import Metrics, Reduced


def train(model, dset, optimizer):
    metrics = Metrics()
    reduced = Reduced()
    for data in dset:
        loss = model.compute_loss(data)
        optimizer.zero_grad()
        loss["total"].backward()
        optimizer.step()
        metrics.losses_track.update_train_losses(loss)
        metrics.losses_track.update_numbers(loss)
        reduced.update(loss["total"])
        reduced.update(loss["total"].detach())
    with torch.no_grad():
        for data in dset:
            metrics.losses_track.update_train_losses(model.compute_loss(data))
"""


def test_meters_of_another_module_reached_through_an_attribute(tmp_path):
    """The zoo's SSA-SC and horovod shapes across files: a meter held by another object
    (``metrics.losses_track``) adds every item of the dict it is given, whose ``["total"]`` was
    differentiated; a metric adds through horovod's autograd-aware ``allreduce``. Silent: the
    items' numbers, a detached value, the loop under ``no_grad``."""
    root = tmp_path / "proj"
    (root / "common").mkdir(parents=True)
    (root / "setup.cfg").write_text("[metadata]\nname = proj\n")
    (root / "common" / "__init__.py").write_text("")
    (root / "common" / "metrics.py").write_text(TRACKS)
    (root / "train.py").write_text(TRAIN_TRACKS)
    proc = tensorcopy("check", "--output-format", "json", "--exit-zero", "--select", "TEN501",
                      ".", cwd=str(root))
    assert proc.returncode == 0, proc.stderr
    got = sorted((d["location"]["row"], d["message"]) for d in json.loads(proc.stdout))
    assert [r for r, _ in got] == [14, 16], got
    assert "`update_train_losses()` adds it into `self.train_losses`" in got[0][1]
    assert "it holds the loss differentiated on line 12" in got[0][1]
    assert "`update()` adds it into `self.sum`" in got[1][1]
    proc = flake8("--select", "TEN501", "train.py", cwd=str(root))
    assert proc.stdout.count("TEN501") == 2, proc.stdout + proc.stderr


class _Criterion(graph.Oracle):
    """``crit(...)`` returns a dict: ``['loss']`` the sum of the term ``['mse']``, ``['psnr']``
    computed from ``['mse']`` (what the index's summary says of such a function)."""

    def summary(self, node, local=False):
        if graph.dotted(node.func) != "crit":
            return None
        return GraphSummary("crit", key_terms={"['loss']": frozenset({"['mse']"})},
                            key_derived={"['mse']": frozenset({"['psnr']"})})


def test_one_container_fact_for_items_terms_and_derived_keys():
    """One HOLDS fact: the dict whose ``['loss']`` was differentiated holds it, through an alias
    too; its term and the key derived from the term are attached; a method that changes the dict
    (``b.pop``) or a rewritten item leaves the container unknown."""
    src = """\
    def f(crit, loader, kept):
        for x in loader:
            out = crit(x)
            out["loss"].backward()
            kept.append(out["mse"])
            kept.append(out["psnr"])
            alias = out
            kept.append(alias)
            b = crit(x)
            b["loss"].backward()
            b.pop("psnr")
            kept.append(b)
            c = crit(x)
            c["loss"].backward()
            c["psnr"] = c["psnr"].item()
            kept.append(c)
    """
    oracle = _Criterion()
    assert _why(src, 5, oracle) == (graph.SIBLING, False)
    assert _why(src, 6, oracle) == (graph.DERIVED, False)
    assert _why(src, 8, oracle) == (graph.HOLDS, False)
    assert _why(src, 12, oracle) is None and _why(src, 16, oracle) is None
    assert _why(src, 6, None) is None  # no summary: the derived key is unknown


def test_the_indices_of_a_reduction_along_a_dimension_hold_no_graph():
    from flake8_tensorcopy.semantic.graph_terms import indexes_tensor

    def idx(src):
        return indexes_tensor(ast.parse(src, mode="eval").body)

    for src in ("out.max(1)[1]", "torch.max(out, 1)[1]", "torch.min(out, dim=1)[1]",
                "out.min(-1)[-1]", "out.sort(1)[1]", "out.topk(3)[1]"):
        assert not idx(src), src
    # the values, an element-wise maximum, a whole reduction: tensors that keep the graph
    for src in ("out.max(1)[0]", "torch.max(out, other)[1]", "out.max()[0]", "out[1]",
                "out.sum(1)[1]"):
        assert idx(src), src


def test_a_differentiated_slice_proves_its_tensor_attached():
    src = """\
def f(model, loader, hist):
    for x in loader:
        out = model(x)
        loss = -out[:, 0].mean()
        loss.backward()
        hist.append(out)
        other = model(x)
        (other[0] * 2).sum().backward()
        hist.append(other)
"""
    assert _why(src, 6) == (graph.DIFFERENTIATED, False)
    # ``other[0]``: a constant index may pick an item of a container: ``other`` holds an
    # attached item (a path fact), it is not proven a tensor with a graph itself
    assert _why(src, 9) == (graph.HOLDS, False)


def test_items_unpacked_from_a_forward_pass_in_a_step_method(tmp_path):
    """Round 7's TD3 agent (held out when written): ``current_q1, current_q2 =
    self.critic(state, action)`` in ``train()``, a step method with no loop of its own (the
    caller's loop repeats it), ``current_q1`` in the differentiated critic loss, then
    ``self.stats["q1"].append(current_q1.mean())`` after the actor's ``backward()``."""
    src = os.path.join(ROOT, "benchmarks", "variants", "round7", "ten501", "td3_mujoco.py")
    with open(src, encoding="utf-8") as fh:
        (tmp_path / "td3.py").write_text(fh.read())
    proc = flake8("--select", "TEN501", "td3.py", cwd=str(tmp_path))
    got = sorted(int(line.split(":")[1]) for line in proc.stdout.splitlines())
    assert got == [107, 108], proc.stdout + proc.stderr


def test_makes_leaf_reads_requires_grad_and_parameters():
    def made(expr):
        return makes_leaf(ast.parse(expr, mode="eval").body)
    assert made("torch.zeros(1, requires_grad=True)")
    assert made("nn.Parameter(torch.ones(3))")
    assert made("torch.nn.Parameter(w, True)")
    assert not made("torch.zeros(1, requires_grad=False)")
    assert not made("torch.zeros(1, requires_grad=flag)")
    assert not made("nn.Parameter(w, requires_grad=False)")
    assert not made("nn.Parameter(w, False)")
    assert not made("torch.zeros(1)")
    assert not made("w")


def test_leaf_attributes_are_bound_only_to_tensors_that_require_grad():
    cls = ast.parse(textwrap.dedent("""
        class Agent:
            def __init__(me, n):
                me.log_alpha = torch.zeros(1, requires_grad=True)
                me.scale: torch.Tensor = nn.Parameter(torch.ones(n))
                me.bias = torch.zeros(1, requires_grad=True)
                me.count = torch.zeros(1, requires_grad=True)
                me.pair, me.other = nn.Parameter(a), nn.Parameter(b)
                me.plain = torch.zeros(1)

            def reset(self):
                self.bias = torch.zeros(1)
                self.count += 1
        """)).body[0]
    assert leaf_attributes(cls) == frozenset({"log_alpha", "scale"})


def test_module_attributes_are_handed_modules_read_as_modules():
    cls = ast.parse(textwrap.dedent("""
        class Trainer:
            def __init__(me, model, teacher, fn, other, *, critic):
                me.model = model.to("cpu")
                me.teacher, me.student = teacher.eval(), other
                me.fn = fn
                me.critic = critic
                me.opt = torch.optim.SGD(model.parameters(), lr=0.1)
                me.swapped = other
                me.maybe = critic

            def reset(self, fresh):
                self.swapped = nn.Linear(2, 2)
                self.maybe = None

            def freeze(self):
                self.critic.eval()
                for p in self.swapped.parameters():
                    p.requires_grad = False
        """)).body[0]
    # model: its parameters read where it is bound; teacher: eval() on it there; critic: a
    # method calls eval() on the attribute. student, fn: nothing reads them as modules;
    # swapped and maybe: bound to something else too
    assert module_attributes(cls) == frozenset({"model", "teacher", "critic"})


def test_an_operation_on_a_leaf_attribute_is_attached_where_grad_is_on():
    class Leaves(graph.Oracle):
        def leaf(self, attr):
            return attr == "log_alpha"
    src = """
    def update(self, loss, hist):
        loss.backward()
        hist.append(self.log_alpha.exp())
        hist.append(self.log_alpha)
        hist.append(self.temperature.exp())
        hist.append(-self.log_alpha)
        with torch.no_grad():
            hist.append(self.log_alpha * 2)
    """
    _, fn = _function(src)
    g = graph.scope_graph(fn, Leaves())
    facts = [g.attached(_value_at(fn, line), stmt) for line, stmt in
             ((4, fn.body[1]), (5, fn.body[2]), (6, fn.body[3]), (7, fn.body[4]),
              (9, fn.body[5].body[0]))]
    assert [f is not None for f in facts] == [True, False, False, True, False]
    assert facts[0].detail == "leaf:self.log_alpha"


YIELDED_LOSSES = """
import torch
import torch.nn.functional as F


def _batch_losses(model, loader):
    for x, y in loader:
        logits = model(x)
        yield F.cross_entropy(logits, y), (logits.argmax(1) == y).sum().item()


def _validate(model, loader):
    model.eval()
    losses, values, correct = [], [], 0
    for loss, n in _batch_losses(model, loader):
        losses.append(loss)
        values.append(loss.item())
        correct += n
    return torch.stack(losses).mean().item(), correct


def _validate_no_grad(model, loader):
    model.eval()
    losses = []
    with torch.no_grad():
        for loss, _ in _batch_losses(model, loader):
            losses.append(loss)
    return losses


def _train(model, opt, train_loader, val_loader, epochs):
    for epoch in range(epochs):
        model.train()
        for loss, _ in _batch_losses(model, train_loader):
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(_validate(model, val_loader), _validate_no_grad(model, val_loader))


if __name__ == "__main__":
    _train(None, None, [], [], 1)
"""


def test_a_generator_summary_keeps_the_sources_of_what_it_yields(tmp_path):
    from flake8_tensorcopy.semantic.graph_yields import YIELDED
    with _graph_summaries(tmp_path, YIELDED_LOSSES) as get:
        gen = get("_batch_losses")
        assert gen.sources.get(YIELDED + "[0]") == frozenset({("c0", "")})  # a call of ``model``
        assert not gen.sources.get(YIELDED + "[1]")  # ``.item()``: a number
        assert not get("_validate").sources  # a function that yields nothing


def test_a_validation_loop_keeps_the_losses_a_generator_yields(tmp_path):
    """Round 8's ``text_cls_generator_eval.py``: what a generator yields from a forward pass of
    the model it is given, kept by a loop its caller runs with grad on; not under ``no_grad``."""
    (tmp_path / "val.py").write_text(YIELDED_LOSSES)
    r = tensorcopy("check", "--no-cache", "--select", "TEN501", "--output-format", "json",
                   "val.py", cwd=str(tmp_path))
    found = sorted((d["location"]["row"], d["code"]) for d in json.loads(r.stdout))
    assert found == [(16, "TEN501")], r.stdout + r.stderr


def test_leaf_properties_compute_from_a_leaf_attribute():
    cls = ast.parse(textwrap.dedent('''
        class Agent:
            @property
            def alpha(self):
                """The temperature."""
                return self.log_alpha.exp()

            @property
            def beta(self):
                return self.log_beta

            @property
            def gamma(self):
                x = self.log_alpha
                return x.exp()

            def delta(self):
                return self.log_alpha.exp()
        ''')).body[0]
    assert leaf_properties(cls, frozenset({"log_alpha", "log_beta"})) == frozenset({"alpha"})
    assert leaf_properties(cls, frozenset()) == frozenset()


SLICED_EVALUATION = """import torch
import torch.nn.functional as F


def train_model(model, loader, opt):
    model.train()
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def inference(model, loader, n):
    model.eval()
    outs = []
    for x in loader:
        out = model(x)[:n]
        outs.append(out)
    return torch.cat(outs).argmax(-1)


def entropy_scores(model, loader):
    model.eval()
    scores = torch.empty(0)
    for x in loader:
        probs = F.softmax(model(x), dim=1)
        ent = -(probs * torch.log(probs + 1e-12)).sum(dim=1)
        scores = torch.cat([scores, ent])
    return scores.argmax().item()


@torch.no_grad()
def accuracy(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()
    return correct


def main():
    model = torch.nn.Linear(4, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = [(torch.randn(2, 4), torch.zeros(2, dtype=torch.long))]
    for _ in range(2):
        train_model(model, loader, opt)
        print(inference(model, [x for x, _ in loader], 1), entropy_scores(model, [x for x, _ in loader]))
        print(accuracy(model, loader))


if __name__ == "__main__":
    main()
"""


def test_evaluation_functions_keeping_a_slice_or_a_negation_of_a_forward_pass(tmp_path):
    """Round 10's ``graphsage_products.py`` and ``active_learning_entropy.py``: functions
    without ``no_grad``, run by ``main`` with grad on, keep ``model(x)[:n]`` or ``-(p *
    p.log()).sum(1)`` of one; the pre-filter's shapes take both (a file that also has a
    ``@torch.no_grad()`` function and a training function)."""
    (tmp_path / "ev.py").write_text(SLICED_EVALUATION)
    r = tensorcopy("check", "--no-cache", "--select", "TEN501", "--output-format", "json",
                   "ev.py", cwd=str(tmp_path))
    found = sorted((d["location"]["row"], d["code"]) for d in json.loads(r.stdout))
    assert found == [(19, "TEN501"), (29, "TEN501")], r.stdout + r.stderr


ROLLOUT = """\
def train(model, opt, env, updates):
    trace, hist = [], []
    for update in range(updates):
        values, ent = [], 0
        for _ in range(5):
            dist, value = model(env.obs())
            values.append(value)
            trace.append(value.squeeze())
            ent += dist.entropy().mean()
        loss = torch.cat(values).sum() - 0.01 * ent
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist.append(ent)
    for m in models:
        a, b = m(env.obs())
        firsts.append(a)
        for x in env.batches():
            m(x).sum().backward()
"""


def test_rollout_items_are_proven_by_the_update_loops_backward():
    """Eighteenth session (round 12's a2c_train.py): an item of a forward pass's output in a
    rollout loop is proven attached by the ``backward`` of the loop around it (the innermost
    loop holding the ``backward`` holds the rollout loop); a total ``ent += ...`` that is a term
    of the differentiated loss is its sibling. An item of a loop over models whose
    ``backward`` runs in a loop of its own is not proven so."""
    oracle = _ParamsOracle()
    assert _why(ROLLOUT, 8, oracle) == (graph.GRAD_ON, False)
    assert _why(ROLLOUT, 14) == (graph.SIBLING, False)
    assert _why(ROLLOUT, 17, oracle) is None


class _ParamsOracle(graph.Oracle):
    """An oracle for which every call of ``model`` or ``m`` is a forward pass of a trainable
    module."""

    def call(self, node):
        return "forward" if isinstance(node.func, ast.Name) and node.func.id in ("model", "m") \
            else None

    def trainable(self, node):
        return True


def test_a_nested_tuple_target_binds_the_item_at_its_path():
    """``loss, (a, b), *rest = f(x)`` (twenty-second session): ``a`` and ``b`` are the items at
    ``[1][0]`` and ``[1][1]`` of what ``f`` returns (kind ``nested``), never its items ``[0]``
    and ``[1]``, which the flat reading took them for; a starred name inside is unknown."""
    fn = ast.parse("def g(f, x):\n    loss, (a, (b, *c)), *rest = f(x)\n").body[0]
    g = graph.scope_graph(fn)
    got = {bd.key: (bd.kind, bd.index) for bd in g.bindings if bd.kind != "param"}
    assert got == {"loss": ("unpack", 0), "a": ("nested", "[1][0]"),
                   "b": ("nested", "[1][1][0]"), "c": ("other", -1), "rest": ("star", 2)}, got


def test_return_none_holds_no_graph_as_a_bare_return():
    """``return None`` is left out of a scope's returns, as a bare ``return`` is: the function's
    value, where it is a tensor, is what its other returns give (a DQN's ``optimize_model``
    returning ``None`` until its memory fills, the loss it differentiated after)."""
    fn = ast.parse(textwrap.dedent("""\
        def optimize(memory):
            if not memory:
                return None
            if len(memory) == 1:
                return
            loss = memory[0].sum()
            loss.backward()
            return loss
        """)).body[0]
    g = graph.scope_graph(fn)
    g._need()
    assert [ast.unparse(v) for v, _ in g.returns] == ["loss"]
    assert g.attached(g.returns[0][0]) is not None


def test_the_weights_of_a_sum_are_its_product_factors():
    from flake8_tensorcopy.semantic.graph_terms import builtin_reduction, factors, terms

    value = ast.parse("-logp.sum() * ret * gate - 0.01 * ent + reg / n", mode="eval").body
    names = {id(t): ast.unparse(t) for t in terms(value)}
    assert sorted(names[i] for i in factors(value)) == ["0.01", "ent", "gate", "logp.sum()",
                                                        "ret"]
    assert "reg" in names.values() and "reg" not in [names[i] for i in factors(value)]
    assert builtin_reduction(ast.parse("sum(rewards)", mode="eval").body)
    assert not builtin_reduction(ast.parse("torch.sum(x)", mode="eval").body)
    assert not builtin_reduction(ast.parse("sum(p.pow(2).sum() for p in ps)", mode="eval").body)


class _Training(graph.Oracle):
    """The parameters of every module require grad (nothing frozen)."""

    def trains_parameters(self, module=None):
        return True


def test_a_parameter_added_in_place_is_an_operation_on_a_leaf():
    """``ema_p.add_(p)`` of ``for ema_p, p in zip(ema.parameters(), model.parameters())``: the
    leaf ``p`` alone is not attached, the add in place records a graph where grad is on (the
    caller's region, unknown here: ``needs_grad``); under ``no_grad`` it records none; a loop
    over something else than parameters gives no leaf."""
    from flake8_tensorcopy.semantic.graph_loop_items import ADDED, added_in_place
    from flake8_tensorcopy.semantic.graph_terms import walked_by

    fn = ast.parse(textwrap.dedent("""\
        def update(model, ema, rows):
            for ema_p, p in zip(ema.parameters(), model.parameters()):
                ema_p.mul_(0.9).add_(p, alpha=0.1)
            with torch.no_grad():
                for q in model.parameters():
                    q.add_(q)
            for r in rows:
                r.add_(r)
        """)).body[0]
    loops = [n for n in ast.walk(fn) if type(n) is ast.For]
    assert ast.unparse(walked_by(loops[0], "p")) == "model"
    assert ast.unparse(walked_by(loops[0], "ema_p")) == "ema"
    assert walked_by(loops[2], "r") is None
    g = graph.scope_graph(fn, _Training())
    stmts = [loop.body[0] for loop in loops]
    arg = [s.value.args[0] for s in stmts]
    assert g.attached(arg[0], stmts[0]) is None  # the leaf alone
    got = added_in_place(g, arg[0], stmts[0])
    assert got is not None and got.needs_grad and got.detail == ADDED + "p"
    assert added_in_place(g, arg[1], stmts[1]) is None  # under ``no_grad``
    assert added_in_place(g, arg[2], stmts[2]) is None  # not a parameter
    assert added_in_place(graph.scope_graph(fn), arg[0], stmts[0]) is None  # may be frozen


def test_a_loss_function_spelled_through_nn_is_torch_functional():
    """The default oracle reads ``nn.functional.mse_loss`` (``import torch.nn as nn``) as
    ``F.mse_loss``: a torch function whose result keeps its arguments' graph."""
    call = ast.parse("nn.functional.mse_loss(out, y)", mode="eval").body
    assert graph.Oracle().call(call) == "through"
    assert graph.Oracle().call(ast.parse("nn.utils.parameters_to_vector(x)",
                                         mode="eval").body) is None
