"""Where a returned value comes from (``semantic.graph_sources``), as the project index's function
summaries record it (``GraphSummary.sources`` / ``regions``), and the TEN501 call sites built on
it, through the CLI across the files of a project."""
import ast
import json
import os
import textwrap

import pytest

from flake8_tensorcopy.semantic import graph, graph_sources
from flake8_tensorcopy.semantic.index import FileContext

from .conftest import tensorcopy

SOURCES = """\
import torch
import torch.nn.functional as F


def metrics(pred, target):
    loss = F.mse_loss(pred, target)
    mae = (pred - target).abs().mean()
    return loss, mae, mae.item(), float(mae), mae.detach(), pred


def quiet(pred, target):
    loss = F.mse_loss(pred, target)
    with torch.no_grad():
        mae = (pred - target).abs().mean()
    return loss, mae


@torch.no_grad()
def decorated(pred, target):
    return F.mse_loss(pred, target), (pred - target).abs().mean()


def flagged(pred, target, flag):
    with torch.set_grad_enabled(flag):
        loss = F.mse_loss(pred, target)
        mae = (pred - target).abs().mean()
    return loss, mae


def unknown(pred, target):
    loss = helper(pred, target)
    mae = (pred - target).abs().mean()
    return loss, mae


def criterion(output, target):
    out = {}
    out["mse"] = F.mse_loss(output["x_hat"], target)
    out["y_bpp"] = torch.log(output["likelihoods"]["y"]).sum()
    out["count"] = output["count"]
    out["twice"] = 2 * out["mse"]
    return out


def branches(pred, target, flag):
    if flag:
        value = (pred * 2).sum()
    else:
        value = (pred - target).sum()
    return value


def forwards(model, x):
    next(model.parameters())
    return model(x).sum(), x


def through(pred, target):
    loss, mae, *_ = metrics(pred, target)
    return mae


def total(pred, target):
    return F.mse_loss(pred, target) + (pred - target).abs().mean()


def starred(pred, *rest, target=None):
    return (pred * 2).sum(), (target * 2).sum(), (rest[0] * 2).sum()


class Scaler:
    def scaled(self, x):
        return x * self.k


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 3)
        self.act = torch.nn.ReLU()

    def step(self, x):
        out = self.fc(x)
        return out.pow(2).mean(), self.act(x).sum()


def display(model, batches):
    total = 0.0
    for x in batches:
        total += model(x).sum()
    return {"loss": total / len(batches), "n": len(batches)}


def differentiated_display(model, x, y):
    out = model(x)
    ce = (out - y).pow(2).mean()
    reg = out.abs().mean()
    loss = ce + reg
    loss.backward()
    return {"loss": loss, "ce": ce, "count": 3}


class Weighting(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.log_vars = torch.nn.Parameter(torch.zeros(2))
        self.prior = torch.ones(2)

    def forward(self, losses):
        return torch.exp(-self.log_vars), torch.exp(-self.prior), self.log_vars


def consumer(opt, log_prob, entropy, beta):
    loss = -log_prob - 0.01 * entropy
    opt.zero_grad()
    loss.backward()
    return beta


def via_total(pred, target):
    loss = total(pred, target)
    return loss, helper(pred, target)


class Own(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 3)

    def forward(self, x):
        return self.fc(x)

    def step(self, x, y):
        out = self(x)
        return total(out, y), out


class Kept:
    def put(self, item):
        self.data.append(item)

    def train_net(self):
        for prob in self.data:
            (-prob.log()).backward()
        self.data = []


class Recorded:
    def put(self, item):
        self.data.append(item)


def evaluate(model, batch, criterion):
    x, y = batch
    return criterion(model(x), y), criterion(model(x), y).item()


class Judge:
    def score(self, model, x, criterion):
        return criterion(model(x), x)


class Stopper:
    def __call__(self, val_loss, model):
        score = -val_loss
        self.scores.append(score)

    def converted(self, val_loss):
        score = -float(val_loss)
        self.scores.append(score)


class Meter:
    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count
        self.text = str(val)
        self.last = float(val)


def meter_epoch(model, batches):
    meter = Meter()
    for x in batches:
        meter.update(model(x).sum(), 2)
    return meter.avg


def summed(model, batches):
    return sum(model(x).sum() for x in batches)


def stacked(model, batches):
    out = []
    for x in batches:
        out.append(model(x).sum())
    return torch.stack(out).mean()


def stacked_detached(model, batches):
    out = []
    for x in batches:
        out.append(model(x).sum().detach())
    return torch.stack(out).mean()


def catted(model, batches):
    probs = [torch.sigmoid(model(x)) for x in batches]
    return torch.cat(probs)


def stacked_inline(model, batches):
    return torch.stack([model(x).sum() for x in batches])


def catted_detached(model, batches):
    return torch.cat([model(x).detach() for x in batches])


class NotModule:
    def forward(self, x):
        return torch.nn.functional.linear(x, x)

    def __call__(self, x):
        return x

    def step(self, x):
        return self(x)
"""


@pytest.fixture
def defs(tmp_path):
    path = tmp_path / "mod.py"
    path.write_text(SOURCES)
    ctx = FileContext(str(path), ast.parse(SOURCES), SOURCES)
    yield ctx.facts().defs
    ctx.release()


def _s(defs, name):
    return defs[name].graph_summary()


def test_items_derived_from_parameters_and_the_region_they_were_computed_in(defs):
    s = _s(defs, "metrics")
    # the loss and the metric: from both arguments, computed where the caller's grad mode holds
    assert s.sources["[0]"] == s.sources["[1]"] == frozenset({("p0", ""), ("p1", "")})
    assert s.regions["[0]"] == s.regions["[1]"] == ""
    # ``.item()``, ``float()``, ``.detach()``: no source; the argument itself: passed on untouched
    assert "[2]" not in s.sources and "[3]" not in s.sources and "[4]" not in s.sources
    assert s.sources["[5]"] == frozenset({("p0", graph_sources.ANY)})
    assert "[5]" not in s.regions  # not computed here: it proves nothing of the grad mode


def test_grad_off_inside_and_decorators_leave_no_source(defs):
    q = _s(defs, "quiet")
    assert q.sources["[0]"] and "[1]" not in q.sources
    assert _s(defs, "decorated").sources == {} and _s(defs, "decorated").regions == {}


def test_a_with_of_unknown_mode_is_its_own_region(defs):
    s = _s(defs, "flagged")
    assert s.sources["[1]"] == frozenset({("p0", "w24"), ("p1", "w24")})
    assert s.regions["[0]"] == "w24"


def test_a_call_of_an_unknown_function_proves_no_region(defs):
    s = _s(defs, "unknown")
    assert "[0]" not in s.regions and "[0]" not in s.sources  # it may turn grad on inside
    assert s.sources["[1]"] == frozenset({("p0", ""), ("p1", "")})


def test_keys_of_a_returned_dict(defs):
    s = _s(defs, "criterion")
    # an item of the argument used as a tensor (``torch.log``): that item of the caller's value
    assert s.sources["['y_bpp']"] == frozenset({("p0['likelihoods']['y']", "")})
    assert s.sources["['mse']"] == frozenset({("p0['x_hat']", ""), ("p1", "")})
    assert "['count']" not in s.sources  # an item passed on, perhaps a number
    assert s.sources["['twice']"] == s.sources["['mse']"] and s.regions["['twice']"] == ""


def test_keys_of_a_returned_dict_display(defs):
    """Each constant key of the dict display every return gives is an item of its own; a
    number the total starts as (``total = 0.0``) holds no graph: the additions decide."""
    s = _s(defs, "display")
    assert s.sources["['loss']"] == frozenset({("c0", "")})
    assert "['n']" not in s.sources  # ``len(...)``: a number
    # keys a differentiating read here proved attached: the loss and a term of it
    assert _s(defs, "differentiated_display").keys == frozenset({"['loss']", "['ce']"})


def test_what_a_method_computes_from_a_parameter_of_its_class(defs):
    """``self.log_vars = nn.Parameter(...)``: a leaf; what is computed from it is attached where
    the caller's grad mode is on, the leaf itself and a plain tensor attribute's value not."""
    s = defs["Weighting"].method("forward").graph_summary()
    assert s.sources["[0]"] == frozenset({("f", "")})
    assert "[1]" not in s.sources
    assert s.sources["[2]"] == frozenset({("f", graph_sources.ANY)})  # the leaf: in no region


def test_the_arguments_a_backward_runs_through(defs):
    """``consumed``: the terms of the sum it differentiates, not the others."""
    s = _s(defs, "consumer")
    assert s.consumed == frozenset({1, 2}) and s.differentiated == frozenset()


def test_the_items_a_summary_followed(defs):
    """``followed``: the returned items (tuple items, keys of a returned dict) the summary
    followed, with a source or none; a caller treats an output field of a module whose
    summary followed none (a record it builds) as a forward pass's output. A function that
    turns grad off follows nothing (None): none of what it returns is attached."""
    assert {"['y_bpp']", "['mse']", "['count']"} <= _s(defs, "criterion").followed
    assert {"[0]", "[1]", "[2]"} <= _s(defs, "metrics").followed
    assert _s(defs, "branches").followed == frozenset()  # only the value itself
    assert _s(defs, "decorated").followed is None


def test_every_binding_must_share_a_source(defs):
    assert _s(defs, "branches").sources[""] == frozenset({("p0", "")})


def test_a_parameter_whose_parameters_are_read_is_a_module(defs):
    s = _s(defs, "forwards")
    assert s.sources["[0]"] == frozenset({("f", "")})
    assert s.sources["[1]"] == frozenset({("p1", graph_sources.ANY)})


def test_only_parameters_a_call_fills_by_position(defs):
    s = _s(defs, "starred")
    assert s.sources["[0]"] == frozenset({("p0", "")})
    assert "[1]" not in s.sources and "[2]" not in s.sources  # keyword-only, ``*rest``


def test_through_another_summary_and_without_self(defs):
    assert _s(defs, "through").sources[""] == frozenset({("p0", ""), ("p1", "")})
    scaled = defs["Scaler"].method("scaled").graph_summary()
    assert scaled.sources[""] == frozenset({("p0", "")})  # ``self.k`` is not the caller's


def test_a_layer_the_class_holds_is_a_forward_pass(defs):
    s = defs["Net"].method("step").graph_summary()
    assert s.sources["[0]"] == frozenset({("f", "")})  # ``self.fc``: a layer with parameters
    assert s.sources["[1]"] == frozenset({("p0", "")})  # ``self.act``: through its input


def test_a_project_function_computes_its_value_in_the_region_it_was_called_in(defs):
    # ``loss = total(pred, target)``: made by ``total``'s own arithmetic, where the caller's
    # grad mode holds; a function the index cannot read proves nothing
    s = _s(defs, "via_total")
    assert s.regions["[0]"] == "" and "[1]" not in s.regions


def test_self_called_in_a_method_of_a_module_is_its_own_forward(defs):
    s = defs["Own"].method("step").graph_summary()
    assert s.sources["[1]"] == frozenset({("f", "")})  # ``self(x)``: ``forward``'s layer
    assert ("f", "") in s.sources["[0]"] and s.regions["[0]"] == ""
    # a class that is no module: ``self(x)`` is its ``__call__``, no forward pass
    assert ("f", "") not in defs["NotModule"].method("step").graph_summary().sources.get("", ())


def test_what_another_method_differentiates_is_kept_on_purpose(defs):
    # ``put`` adds its argument into ``self.data``: a tracker, unless another method of the
    # class reads ``self.data`` and differentiates (REINFORCE's ``train_net``)
    assert defs["Recorded"].method("put").graph_summary().accumulates == {0: "self.data"}
    assert defs["Kept"].method("put").graph_summary().accumulates == {}


def test_what_a_call_of_a_parameter_computes_from_its_arguments(defs):
    # ``criterion(model(x), y)``: a forward pass where the caller hands a module as
    # ``criterion`` ("c2"); what it computes from ``model(x)`` where it hands a loss
    # ("t2:c0": ``model``'s forward pass, where that is a module); a number: no source
    s = _s(defs, "evaluate")
    # (and, since the twenty-second session, from the items ``x, y = batch`` unpacks from the
    # caller's argument 1: "t2:t0:p1[0]", "t2:p1[1]")
    assert s.sources["[0]"] == frozenset({("c2", ""), ("t2:c0", ""), ("t2:t0:p1[0]", "*"),
                                          ("t2:p1[1]", "*")})
    assert "[1]" not in s.sources
    # a method's ``self`` is no argument of the caller's: every position counts without it
    # (``x``, the caller's argument 1, handed to both calls: "t2:p1", "t2:t0:p1")
    judge = defs["Judge"].method("score").graph_summary()
    assert judge.sources[""] == frozenset({("c2", ""), ("t2:c0", ""), ("t2:p1", "*"),
                                           ("t2:t0:p1", "*")})
    # the inner origin is counted the same way, and dropped with ``self`` or past the
    # positional parameters
    assert graph_sources.shifted(
        frozenset({("t3:c1", ""), ("t1:c0", ""), ("t3:p5", ""), ("c3", ""), ("t2:f", "")}), 1,
        4) == frozenset({("t2:c0", ""), ("c2", ""), ("t1:f", "")})


def test_a_loss_handed_to_a_summarised_call_keeps_the_forward_pass(defs):
    class Oracle(graph.Oracle):
        def summary(self, node, local=False):
            return _s(defs, "evaluate") if getattr(node.func, "id", None) == "evaluate" \
                else None

        def module_name(self, name):
            return name == "model"

        def loss_name(self, name):
            return name == "crit"

        def trainable(self, node):
            return True

    fn = ast.parse(textwrap.dedent("""\
        def f(loader, out, metric):
            model = Net()
            crit = Loss()
            for b in loader:
                v, n = evaluate(model, b, crit)
                out.append(v)
                w, _ = evaluate(model, b, metric)
                out.append(w)
                u, m = evaluate(model, b, F.cross_entropy)
                out.append(u)
                out.append(m)
        """)).body[0]
    g = graph.scope_graph(fn, Oracle())
    got = _attached_at(fn, g, 6)
    assert got is not None and got.why == graph.FORWARD and got.needs_grad
    assert _attached_at(fn, g, 8) is None  # a parameter of this scope: not known to be a loss
    assert _attached_at(fn, g, 10) is not None  # a torch loss function as spelled
    assert _attached_at(fn, g, 11) is None  # the number it returns


def test_what_a_method_keeps_through_a_name_computed_from_a_parameter(defs):
    # ``score = -val_loss; self.scores.append(score)``: the parameter's value, kept
    stopper = defs["Stopper"]
    assert stopper.method("__call__").graph_summary().accumulates == {0: "self.scores"}
    assert stopper.method("converted").graph_summary().accumulates == {}  # a number


def test_what_a_method_leaves_in_self_holds_its_arguments_graph(defs):
    # ``self.sum += val * n`` and ``self.avg = self.sum / self.count``: both hold ``val``'s
    # graph after a call (and ``n``'s: ``count``); ``str()``, ``float()``: none
    update = defs["Meter"].method("update").graph_summary()
    assert update.holds == {"val": {0}, "sum": {0}, "count": {1}, "avg": {0, 1}}

    # a scope that made the instance reads ``meter.avg`` through it: attached as the argument
    class Oracle(graph.Oracle):
        def call(self, node):
            return "forward" if getattr(node.func, "id", None) == "model" else None

        def method_summary(self, made, name):
            return update if getattr(made.func, "id", None) == "Meter" and name == "update" \
                else None

    fn = ast.parse(textwrap.dedent("""\
        def f(model, loader, out, meter2):
            for x, y in loader:
                meter = Meter()
                loss = model(x).sum()
                meter.update(loss, 2)
                loss.backward()
                out.append(meter.avg)
                out.append(meter.text)
                meter2.update(loss)
                out.append(meter2.avg)
        """)).body[0]
    g = graph.scope_graph(fn, Oracle())
    got = _attached_at(fn, g, 7)
    assert got is not None and got.why == graph.DERIVED and not got.needs_grad
    assert _attached_at(fn, g, 8) is None  # a field no call leaves a graph in
    assert _attached_at(fn, g, 10) is None  # an instance the scope did not make


def test_a_sum_over_a_generator_and_a_list_the_scope_appends_to(defs):
    # every item's forward pass (``model``: the caller's argument 0, where it is a module)
    assert _s(defs, "summed").sources[""] == frozenset({("c0", "")})
    assert _s(defs, "stacked").sources[""] == frozenset({("c0", "")})
    assert "" not in _s(defs, "stacked_detached").sources  # detached items: none


def _scope(src, summaries):
    """A scope's graph with an oracle giving each called name's summary from ``summaries``."""
    class Oracle(graph.Oracle):
        def call(self, node):
            if isinstance(node.func, ast.Name) and node.func.id == "model":
                return "forward"
            return super().call(node)

        def summary(self, node, local=False):
            return summaries.get(getattr(node.func, "id", None))

    fn = ast.parse(textwrap.dedent(src)).body[0]
    return fn, graph.scope_graph(fn, Oracle())


def _attached_at(fn, g, line):
    for node in ast.walk(fn):
        if isinstance(node, ast.Expr) and node.lineno == line:
            return g.attached(node.value.args[0])
    raise AssertionError(line)


def test_a_tensor_made_of_a_comprehension_s_items(defs):
    # ``torch.cat([...])`` of a list comprehension, bound first or spelled in place: every item's
    assert _s(defs, "catted").sources[""] == frozenset({("c0", "")})
    assert _s(defs, "stacked_inline").sources[""] == frozenset({("c0", "")})
    assert "" not in _s(defs, "catted_detached").sources  # detached items: none


def test_a_differentiated_item_proves_the_region_of_its_call(defs):
    summaries = {"metrics": _s(defs, "metrics"), "unknown": _s(defs, "unknown")}
    fn, g = _scope("""\
        def f(model, loader, out):
            for x, y in loader:
                loss, mae, *_ = metrics(model(x), y)
                loss.backward()
                out.append(mae)
                a, b = unknown(model(x), y)
                out.append(b)
                with torch.no_grad():
                    c, d, *_ = metrics(model(x), y)
                out.append(d)
        """, summaries)
    got = _attached_at(fn, g, 5)
    assert got.why == graph.GRAD_ON and not got.needs_grad and got.line == 4
    assert _attached_at(fn, g, 7).why == graph.GRAD_ON  # the same region, proven by line 4
    assert _attached_at(fn, g, 10) is None  # made under no_grad


def test_a_differentiated_call_value_proves_its_region(defs):
    assert _s(defs, "total").regions[""] == "" and "" not in _s(defs, "branches").regions
    summaries = {"metrics": _s(defs, "metrics"), "total": _s(defs, "total")}
    fn, g = _scope("""\
        def f(model, loader, out, flag):
            for x, y in loader:
                loss = total(model(x), y)
                loss.backward()
                _, mae, *_ = metrics(model(x), y)
                out.append(mae)
        """, summaries)
    got = _attached_at(fn, g, 6)
    assert got.why == graph.GRAD_ON and got.line == 4


def test_a_scope_that_sets_grad_mode_by_a_call_proves_no_region(defs):
    fn, g = _scope("""\
        def f(model, loader, out):
            for x, y in loader:
                loss, mae, *_ = metrics(model(x), y)
                loss.backward()
                torch.set_grad_enabled(False)
                out.append(mae)
        """, {"metrics": _s(defs, "metrics")})
    assert _attached_at(fn, g, 6) is None


def test_without_a_differentiated_item_the_grad_mode_stays_to_prove(defs):
    fn, g = _scope("""\
        def f(model, loader, out):
            for x, y in loader:
                a, b = unknown(model(x), y)
                a.backward()
                out.append(b)
                loss, mae, *_ = metrics(x, y)
                out.append(mae)
        """, {"metrics": _s(defs, "metrics"), "unknown": _s(defs, "unknown")})
    got = _attached_at(fn, g, 5)
    assert got.why == graph.FORWARD and got.needs_grad  # the callers must prove grad on
    assert _attached_at(fn, g, 7) is None  # derived from the caller's own arguments: unknown


CRITERION = """\
import torch


class RateLoss(torch.nn.Module):
    def forward(self, output, target):
        out = {}
        out["mse"] = ((output["x_hat"] - target) ** 2).mean()
        out["y_bpp"] = torch.log(output["likelihoods"]["y"]).sum()
        out["loss"] = 2 * out["mse"]
        return out
"""

TRAIN = """\
import torch

from losses import RateLoss


class Meter:
    def __init__(self):
        self.sum = 0

    def update(self, val, n=1):
        self.sum += val * n


def train(model, loader, optimizer):
    next(model.parameters())
    criterion = RateLoss()
    meter = Meter()
    for d in loader:
        out = criterion(model(d), d)
        out["loss"].backward()
        optimizer.step()
        meter.update(out["y_bpp"])
        meter.update(out["y_bpp"].detach())
    with torch.no_grad():
        for d in loader:
            meter.update(criterion(model(d), d)["y_bpp"])
"""


def test_a_criterion_key_from_the_model_output_across_files(tmp_path):
    (tmp_path / "losses.py").write_text(CRITERION)
    (tmp_path / "train.py").write_text(TRAIN)
    proc = tensorcopy("check", "--select", "TEN501", "--output-format", "json", "--no-cache",
                      str(tmp_path))
    found = [(os.path.basename(d["filename"]), d["location"]["row"], d["message"])
             for d in json.loads(proc.stdout)]
    assert [(f, line) for f, line, _ in found] == [("train.py", 22)]
    assert "output or parameters with grad on" in found[0][2] and "line 20" in found[0][2]



def test_a_loss_summed_from_a_number_proves_grad_where_it_was_summed():
    """``loss = 0.0`` then ``loss += w * crit(o, y)`` and ``loss.backward()``: the first addition
    made a new tensor in that region, as ``loss = crit(o, y)`` would (twenty-second session);
    a sum onto a parameter's tensor, reached by more than numbers, proves nothing."""
    from flake8_tensorcopy.semantic.graph_facts import Oracle as Plain

    tree = ast.parse(textwrap.dedent("""\
        def summed(crit, outs, y, ws):
            loss = 0.0
            for w, o in zip(ws, outs):
                loss += w * crit(o, y)
            loss.backward()

        def onto(total, crit, o, y):
            for _ in range(2):
                total += crit(o, y)
            total.backward()

        def either(crit, o, y, flag):
            loss = 0.0
            if flag:
                loss = crit(o, y) * 0
            with torch.no_grad():
                loss += 1.0 * crit(o, y)
            loss.backward()
        """))
    summed, onto, either = tree.body
    assert graph_sources.proven_regions(graph.scope_graph(summed, Plain())) == {"": 5}
    assert graph_sources.proven_regions(graph.scope_graph(onto, Plain())) == {}
    assert "off" not in graph_sources.proven_regions(graph.scope_graph(either, Plain()))


def test_arithmetic_differentiated_where_it_is_made_proves_grad_on_there():
    """``(losses.mean() + aux).backward()``: the sum is made where it is differentiated, so grad
    was on there, as ``loss = a + b; loss.backward()`` proves (twenty-seventh session); the
    differentiation of a name bound elsewhere proves nothing of this region."""
    from flake8_tensorcopy.semantic.graph_facts import Oracle as Plain

    tree = ast.parse(textwrap.dedent("""\
        def inline(crit, o, y, aux):
            losses = crit(o, y)
            (losses.mean() + aux).backward()

        def negated(crit, o, y):
            (-(o * y)).backward()

        def nothing(crit, o, y, loss):
            with torch.no_grad():
                losses = crit(o, y)
            loss.backward()
        """))
    inline, negated, nothing = tree.body
    assert graph_sources.proven_regions(graph.scope_graph(inline, Plain())) == {"": 3}
    assert graph_sources.proven_regions(graph.scope_graph(negated, Plain())) == {"": 6}
    assert graph_sources.proven_regions(graph.scope_graph(nothing, Plain())) == {}


def test_a_loss_differentiated_through_a_scaler_bound_to_a_name_proves_its_region():
    """``scaled = scaler.scale(loss); scaled.backward()``: the scaler's method proves nothing
    of itself, but ``loss``, marked differentiated through it, proves where it was made (the
    twenty-seventh session: the scaled binding's unknown region had spoiled the proof)."""
    from flake8_tensorcopy.semantic.graph_facts import Oracle as Plain

    tree = ast.parse(textwrap.dedent("""\
        def step(o, y, scaler):
            loss = (o - y).pow(2).mean()
            scaled = scaler.scale(loss)
            scaled.backward()
        """))
    assert graph_sources.proven_regions(graph.scope_graph(tree.body[0], Plain())) == {"": 4}


def test_a_sum_started_at_a_number_is_computed_where_it_was_summed():
    """``total = 0.0`` then ``total = total + v`` (or ``total += v``) in a loop, returned: the
    summary says where its value was computed, as for ``return v`` (twenty-second session); a
    sum onto a parameter, or two bindings besides the number, say nothing."""
    from flake8_tensorcopy.semantic.graph_facts import Oracle as Plain

    tree = ast.parse(textwrap.dedent("""\
        def summed(preds, ys):
            total = 0.0
            for p, y in zip(preds, ys):
                total = total + (p - y).pow(2).mean()
            return total

        def augmented(preds, ys):
            total = 0
            for p, y in zip(preds, ys):
                total += (p - y).abs().mean()
            return total

        def onto(total, preds):
            for p in preds:
                total = total + p.sum()
            return total

        def two(preds, flag):
            total = 0.0
            for p in preds:
                if flag:
                    total = total + p.sum()
                else:
                    total = total * p.mean()
            return total
        """))
    got = [graph_sources.computed_in(g, g.returns[0][0], g.returns[0][1])
           for g in (graph.scope_graph(fn, Plain()) for fn in tree.body)]
    assert got == ["", "", None, None], got


def test_a_display_s_item_is_bound_by_position_only_without_a_star():
    """``graph_facts.bound_value``: ``a, b = x, []`` binds ``b`` to ``[]``; with a ``*`` on
    either side which item a name gets is not read (``first, *rest, last = 0, 1, []``)."""
    from flake8_tensorcopy.semantic.graph_facts import bound_value

    tree = ast.parse("a, b = x, []\nfirst, *rest, last = 0, 1, []\nc, d = *ys, []\n")
    g = graph.scope_graph(tree)
    g._need()
    got = {bd.key: bound_value(bd) for bd in g.bindings}
    assert type(got["b"]) is ast.List and ast.unparse(got["a"]) == "x"
    assert got["last"] is None and got["first"] is None
    assert got["c"] is None and got["d"] is None


_SUM_DICTS = """\
from collections import defaultdict
import torch

model = torch.nn.Linear(3, 1)


def terms_of(x):
    pred = model(x)
    mse = pred.pow(2).mean()
    return {"loss": mse + pred.abs().mean(), "mse": mse}


def summed(data):
    sums = defaultdict(float)
    for x in data:
        terms = terms_of(x)
        terms["loss"].backward()
        for k, v in terms.items():
            sums[k] += v
    return sums


def summed_numbers(data):
    sums = defaultdict(float)
    for x in data:
        terms = terms_of(x)
        terms["loss"].backward()
        for k, v in terms.items():
            sums[k] += v.item()
    return sums


def added(data):
    total = {"loss": 0.0}
    for x in data:
        loss = model(x).sum()
        loss.backward()
        total["loss"] = total["loss"] + loss
    return total


def added_elsewhere(data, total):
    for x in data:
        loss = model(x).sum()
        loss.backward()
        total["loss"] = total["loss"] + loss
    return total


def kept_then_read(data):
    out = {"loss": model(data).sum(), "n": 3}
    out["loss"].backward()
    return out
"""


def test_a_returned_dict_the_function_adds_what_it_differentiated_into(tmp_path):
    """``adds_into``: every return gives back a dict the function made (``defaultdict(float)``,
    a display of numbers) and added a value it proved attached into (``+=``, ``d[k] = d[k] +
    v``, also each value of a dict whose ``"loss"`` it differentiated); not where the values
    added are numbers, nor a dict the caller handed it."""
    path = tmp_path / "sums.py"
    path.write_text(_SUM_DICTS)
    ctx = FileContext(str(path), ast.parse(_SUM_DICTS), _SUM_DICTS)
    try:
        defs = ctx.facts().defs
        assert defs["summed"].graph_summary().adds_into
        assert defs["added"].graph_summary().adds_into
        assert not defs["summed_numbers"].graph_summary().adds_into
        assert not defs["added_elsewhere"].graph_summary().adds_into
        assert not defs["kept_then_read"].graph_summary().adds_into
        assert defs["kept_then_read"].graph_summary().keys == frozenset({"['loss']"})
    finally:
        ctx.release()


_GLOBAL_MODELS = """\
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 1)

    def forward(self, x):
        return self.fc(x), x.shape[0]


model = Net()
criterion = nn.MSELoss()
scale = 2.0


def score(x, y):
    out, n = model(x)
    return criterion(out, y)


def score_shadowed(x, y):
    model = torch.sigmoid
    return criterion(model(x), y)


def score_number(x):
    return scale * x.sum()
"""


def test_a_summary_reads_the_module_s_own_top_level_model(tmp_path):
    """``IndexOracle.global_call``/``summary``: ``model(x)`` of the module's ``model = Net()``
    is a forward pass (the item of its output its ``forward`` returns attached), ``criterion``
    a loss through its inputs; a function binding ``model`` itself is not read so, nor a
    top-level number."""
    path = tmp_path / "glob.py"
    path.write_text(_GLOBAL_MODELS)
    ctx = FileContext(str(path), ast.parse(_GLOBAL_MODELS), _GLOBAL_MODELS)
    try:
        defs = ctx.facts().defs
        assert ("f", "") in defs["score"].graph_summary().sources.get("", ())
        assert not any(o == "f" for o, _ in defs["score_shadowed"].graph_summary().sources.get(
            "", ()))
        assert not any(o == "f" for o, _ in defs["score_number"].graph_summary().sources.get(
            "", ()))
    finally:
        ctx.release()
