"""State-dict storage facts (semantic/statedicts.py) and the per-function summaries of the project
index (semantic/index/statedict_summaries.py) that TEN402 reads across methods, calls and files
(issue 43), and the key-only reads that are no read of the tensors (issue 46)."""
import ast
import os
import re
import textwrap

import pytest

from flake8_tensorcopy.semantic.index import FileContext
from flake8_tensorcopy.semantic.index.statedict_summaries import summarize_function, summary
from flake8_tensorcopy.semantic.statedicts import (
    constant_getattr, live_state_dict, reads_keys_only, same_storage, state_dict_receiver,
    storage_root,
)
from flake8_tensorcopy.syntax.build import parse_expression

from .conftest import FIXTURES, flake8

LINE = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<code>TEN\d{3})", re.M)


def live(text, named=()):
    return live_state_dict(parse_expression(text), lambda name: name in named)


# ---- which expressions hold a module's live tensors -----------------------------------------
@pytest.mark.parametrize("text, shallow, where", [
    ("model.state_dict()", False, ""),
    ("model.state_dict().copy()", True, ""),
    ("dict(model.state_dict())", True, ""),
    ("collections.OrderedDict(self.net.state_dict())", True, ""),
    ("copy.copy(model.state_dict())", True, ""),
    ("{k: v for k, v in model.state_dict().items()}", True, ""),
    ("{k: v.detach() for k, v in model.state_dict().items()}", True, ""),
    ("{k: v.cpu() for k, v in model.state_dict().items()}", True, "on CPU"),
    ("{k: v.detach().cpu() for k, v in model.state_dict().items()}", True, "on CPU"),
    ("{k: v.to('cpu') for k, v in model.state_dict().items()}", True, "on CPU"),
    # a filter or new keys keep the same tensors as values (a held-out variant: lottery-ticket
    # rewinding keeps the weights it filters or renames)
    ("{k: v for k, v in model.state_dict().items() if 'bn' not in k}", True, ""),
    ("{k.replace('a', 'b'): v for k, v in model.state_dict().items()}", True, ""),
    ("model.state_dict(keep_vars=True)", False, ""),
    # seventh session: these were "not live" before; measured (claim
    # float-and-numpy-snapshots-are-the-tensors), the arrays share the CPU tensors' memory and
    # ``.float()`` of a float32 tensor is the tensor
    ("{k: v.cpu().numpy() for k, v in model.state_dict().items()}", True, "on CPU"),
    ("{k: v.float() for k, v in model.state_dict().items()}", True, "for float32 tensors"),
    # eighth session: the pairs of its items handed to ``dict``/``OrderedDict``
    ("OrderedDict((k, v) for k, v in model.backbone.state_dict().items())", True, ""),
    ("dict([(k, v.detach()) for k, v in model.state_dict().items()])", True, ""),
    ("dict((k, v.cpu()) for k, v in model.state_dict().items() if 'bn' in k)", True, "on CPU"),
    # twelfth session: ``.to(device)`` returns the tensor where it is on that device already
    ("{k: v.to(device) for k, v in model.state_dict().items()}", True, "if already on `device`"),
    ("{k: v.detach().to(dev) for k, v in model.state_dict().items()}", True,
     "if already on `dev`"),
    # thirteenth session: an object's own device, where it keeps its model
    ("{k: v.to(self.device) for k, v in self.model.state_dict().items()}", True,
     "if already on `self.device`"),
    # fourteenth session: the module's own device, where its tensors are
    ("{k: v.to(pl_module.device) for k, v in pl_module.state_dict().items()}", True, ""),
    ("{k: v.to(self.model.device) for k, v in self.model.state_dict().items()}", True, ""),
])
def test_live_state_dicts(text, shallow, where):
    got = live(text)
    assert got is not None and got.shallow is shallow and got.where == where
    assert got.receiver is not None and got.source is None


@pytest.mark.parametrize("text", [
    "copy.deepcopy(model.state_dict())",
    "{k: v.clone() for k, v in model.state_dict().items()}",
    "{k: v.cpu().clone() for k, v in model.state_dict().items()}",
    "{k: v.detach().cpu().clone() for k, v in model.state_dict().items()}",
    "{k: v.to('cuda') for k, v in model.state_dict().items()}",
    "{k: v.to(device).clone() for k, v in model.state_dict().items()}",
    "{k: v.to(device, copy=True) for k, v in model.state_dict().items()}",
    "{k: v.to(cfg.device) for k, v in model.state_dict().items()}",
    "{k: v.to(other.device) for k, v in model.state_dict().items()}",  # another module's
    "{k: v.cpu().numpy().copy() for k, v in model.state_dict().items()}",
    "{k: v.double() for k, v in model.state_dict().items()}",
    "scheduler.state_dict()",
    "model.state_dict(prefix='x')",
    "OrderedDict((k, v.clone()) for k, v in model.state_dict().items())",
    "dict((v, k) for k, v in model.state_dict().items())",  # the tensors as keys: no dict of them
    "dict((k, k) for k, v in model.state_dict().items())",
    "sd.copy()",  # a name not known to hold a live state dict
    "dict(sd)",
])
def test_not_live(text):
    assert live(text) is None


def test_a_name_holding_a_live_state_dict_is_copied_shallowly():
    for text in ("sd.copy()", "copy.copy(sd)", "dict(sd)", "{k: v for k, v in sd.items()}"):
        got = live(text, named={"sd"})
        assert got is not None and got.receiver is None and got.source == "sd", text
    assert live("copy.deepcopy(sd)", named={"sd"}) is None


def test_same_storage_conversions():
    assert same_storage(parse_expression("v"), "v") == ""
    assert same_storage(parse_expression("v.detach()"), "v") == ""
    assert same_storage(parse_expression("v.cpu()"), "v") == "on CPU"
    assert same_storage(parse_expression("v.cpu().detach()"), "v") == "on CPU"
    assert same_storage(parse_expression('v.to("cpu")'), "v") == "on CPU"
    assert same_storage(parse_expression("torch.as_tensor(v)"), "v") == ""  # ``v`` itself
    assert same_storage(parse_expression("torch.as_tensor(v).cpu()"), "v") == "on CPU"
    for copy in ("v.clone()", "v.cpu().clone()", 'v.to("cpu", copy=True)', "v.double()", "w",
                 "torch.as_tensor(v, dtype=torch.float64)", "torch.tensor(v)",
                 "torch.as_tensor(v.tolist())", "np.as_tensor(v)"):
        assert same_storage(parse_expression(copy), "v") is None, copy


def test_storage_root_reads_views_of_any_expression():
    # ``.T``/``.mT`` are views, as ``.data`` shares the storage
    assert same_storage(parse_expression("v.T"), "v") == ""
    assert same_storage(parse_expression("v.data.mT.detach()"), "v") == ""
    root, where = storage_root(parse_expression("model[-1].weight.reshape(-1)"))
    assert (type(root).__name__, root.attr.value, where) == (
        "Attribute", "weight", "for contiguous tensors")
    assert storage_root(parse_expression("model.fc.bias.detach().clone()")) is None
    assert storage_root(parse_expression("model.fc.bias.to(torch.float64)")) is None


@pytest.mark.parametrize("text, keys", [
    ("len(sd)", True), ("list(sd)", True), ("sorted(sd)", True), ("sd.keys()", True),
    ("'fc.weight' in sd", True), ("k not in sd", True),
    ("sd['fc.weight']", False), ("sd.values()", False), ("sd.items()", False),
    ("len(other)", False), ("sd in k", False), ("print(sd)", False),
])
def test_key_only_reads(text, keys):
    assert reads_keys_only(parse_expression(text), "sd") is keys


# ---- per-function summaries --------------------------------------------------------------
def summarize(src):
    return summarize_function(ast.parse(textwrap.dedent(src)).body[0])


@pytest.mark.parametrize("src, position", [
    ("def strip(state, prefix='module.'):\n"
     "    return {k[len(prefix):]: v for k, v in state.items()}\n", 0),
    ("def renamed(self, state):\n    if not state:\n        return dict(state)\n"
     "    return {'net.' + k: v.detach() for k, v in state.items()}\n", 1),
    ("def shallow(sd):\n    return sd.copy()\n", 0),
    # not a dict of what it is given on every return, or not the same tensors
    ("def cloned(state):\n    return {k: v.clone() for k, v in state.items()}\n", None),
    ("def same(state):\n    return state\n", None),
    ("def either(a, b):\n    if a:\n        return dict(a)\n    return dict(b)\n", None),
    ("def maybe(state):\n    if state:\n        return dict(state)\n", None),
    ("def kw(*, state):\n    return dict(state)\n", None),
])
def test_summary_hands_back_the_tensors_of_a_parameter(src, position):
    assert summarize(src).passes_items == position


def test_a_summary_reads_no_statement_of_a_function_defined_inside():
    """``own_nodes`` walked into a ``def`` that stands directly in the body: its ``return None``
    counted as one of the outer function's returns, which then looked not live."""
    s = summarize("""
        def get_weights(model):
            def on_event():
                return None
            return model.state_dict()
    """)
    assert s.returns_live is not None and s.returns_text == "model.state_dict()"


def test_summary_returns_a_live_state_dict():
    s = summarize("""
        def get_weights(self):
            if self.ema is None:
                return self.model.state_dict()
            return {k: v.detach() for k, v in self.ema.state_dict().items()}
    """)
    assert s.returns_live is not None and s.returns_text == "self.model.state_dict()"
    for src in ("def f(self):\n    return copy.deepcopy(self.model.state_dict())\n",
                "def f(self):\n    if x:\n        return self.model.state_dict()\n    return None\n",
                "def f(self):\n    return {'model': self.model.state_dict()}\n",
                "def f(self):\n    def g():\n        return self.model.state_dict()\n    return g\n"):
        assert summarize(src).returns_live is None, src


def test_summary_writes_parameters_in_place():
    forms = {
        "for p, s in zip(model.parameters(), shadow):\n        p.data.copy_(s)": True,
        "for p, s in zip(model.parameters(), shadow):\n        p.copy_(s)": True,
        "for n, p in model.named_parameters():\n        p.data = shadow[n]": True,
        "for p in model.parameters():\n        p.mul_(0.5)": True,
        "model.load_state_dict(shadow)": True,
        "for s, p in zip(shadow, model.parameters()):\n        s.mul_(0.9).add_(p)": False,
        "for s, p in zip(shadow, model.parameters()):\n        p.copy_(s)": True,
        "for s, (n, p) in zip(shadow, model.named_parameters()):\n        p.copy_(s)": True,
        "for p in model.parameters():\n        p.requires_grad_(False)": False,
        "for p in model.parameters():\n        total = total + p.sum()": False,
    }
    for body, writes in forms.items():
        s = summarize(f"def copy_to(model, shadow):\n    {body}\n")
        assert (s.writes_params == {"model", 0}) is writes, body
        assert not s.writes_params or writes, body
    s = summarize("def apply(self):\n    for p, s in zip(self.model.parameters(), self.shadow):\n"
                  "        p.data.copy_(s)\n")
    assert s.writes_params == {"self.model"}
    # the items of an iterable it is given (``ema.copy_to(model.parameters())``)
    s = summarize("def copy_to(self, parameters):\n"
                  "    for s, p in zip(self.shadow, parameters):\n        p.copy_(s)\n")
    assert s.writes_params == {"*parameters", "*1"}
    s = summarize("def store(self, parameters):\n"
                  "    for s, p in zip(self.shadow, parameters):\n        s.copy_(p)\n")
    assert s.writes_params == frozenset()


def test_summary_trains():
    assert summarize("def step(self, x):\n    self.opt.step()\n").trains == "self.opt.step()"
    assert summarize("def step(self, loss):\n    loss.backward()\n").trains == "backward()"
    assert summarize("def step(self):\n    self.scheduler.step()\n").trains == ""
    assert summarize("def step(self):\n    self.env.step(0)\n").trains == ""


def test_summary_is_worked_out_once_per_function(tmp_path):
    src = textwrap.dedent("""
        class Trainer:
            def get_weights(self):
                return self.model.state_dict()
    """)
    path = tmp_path / "trainer.py"
    path.write_text(src)
    ctx = FileContext(str(path), ast.parse(src), src)
    try:
        fn = ctx.current_class("Trainer").method("get_weights")
        first = summary(fn)
        assert first.returns_live is not None
        assert summary(fn) is first  # kept with the function's module: a look-up
    finally:
        ctx.release()


# ---- through flake8: a wrapper and an EMA helper of another module of the project ------------
TRAINER = """\
import torch


class Trainer:
    def __init__(self, model):
        self.model = model

    def get_weights(self):
        return self.model.state_dict()


class EMA:
    def __init__(self, model):
        self.shadow = [p.detach().clone() for p in model.parameters()]

    def copy_to(self, model):
        with torch.no_grad():
            for p, s in zip(model.parameters(), self.shadow):
                p.copy_(s)
"""

TRAIN = """\
import copy

import torch

from helpers import EMA, Trainer


def fit(model, opt, loader, evaluate):
    trainer = Trainer(model)
    ema = EMA(model)
    best = None
    for x in loader:
        model(x).sum().backward()
        opt.step()
        if evaluate(model):
            best = trainer.get_weights()
    model.load_state_dict(best)
    backup = model.state_dict()
    ema.copy_to(model)
    evaluate(model)
    model.load_state_dict(backup)
    fixed = copy.deepcopy(model.state_dict())
    ema.copy_to(model)
    model.load_state_dict(fixed)
"""


def test_summaries_reach_across_modules_through_flake8(tmp_path):
    (tmp_path / "helpers.py").write_text(TRAINER)
    (tmp_path / "train.py").write_text(TRAIN)
    proc = flake8("--select", "TEN402", "train.py", cwd=str(tmp_path))
    assert proc.returncode == 1, proc.stderr
    got = {(int(m["line"]), m["code"]) for m in LINE.finditer(proc.stdout)}
    assert got == {(16, "TEN402"), (18, "TEN402")}, proc.stdout
    assert "`get_weights()` returns `self.model.state_dict()`" in proc.stdout
    assert "`ema.copy_to()` (it writes `model`'s parameters in place)" in proc.stdout


def test_issue46_remapped_loaded_and_measured_through_flake8(tmp_path):
    (tmp_path / "load.py").write_text(textwrap.dedent("""\
        import torch


        def load(model, checkpoint):
            sd = model.state_dict()
            model.load_state_dict({k.replace("module.", ""): v for k, v in sd.items()})
            print(f"loaded {len(sd)} tensors", "fc.weight" in sd)
            return sorted(sd.keys())


        def read_after_load(model, pretrained):
            sd = model.state_dict()
            model.load_state_dict(pretrained)
            print(len(sd))
            return sd["fc.weight"]
    """))
    proc = flake8("--select", "TEN402", "load.py", cwd=str(tmp_path))
    got = {(int(m["line"]), m["code"]) for m in LINE.finditer(proc.stdout)}
    assert got == {(12, "TEN402")}, proc.stdout


CALLBACKS = """\
import copy


class EarlyStopping:
    def __init__(self, patience=5):
        self.patience = patience
        self.best_score = None
        self.counter = 0
        self.best_state = None

    def step(self, score, model):
        if self.best_score is None:
            self.best_score = score
            self.best_state = model.state_dict()
        elif score < self.best_score:
            self.counter += 1
            if self.counter >= self.patience:
                return True
        else:
            self.best_score = score
            self.best_state = model.state_dict()
            self.counter = 0
        return False


class EarlyStoppingFixed:
    def __init__(self):
        self.best_state = None

    def step(self, score, model):
        self.best_state = copy.deepcopy(model.state_dict())
        return False
"""

FIT = """\
from callbacks import EarlyStopping, EarlyStoppingFixed


def fit(model, opt, loader, evaluate, epochs):
    es = EarlyStopping()
    for epoch in range(epochs):
        for x in loader:
            opt.zero_grad()
            model(x).sum().backward()
            opt.step()
        if es.step(evaluate(model), model):
            break
    model.load_state_dict(es.best_state)


def fit_fixed(model, opt, loader, evaluate, epochs):
    es = EarlyStoppingFixed()
    for epoch in range(epochs):
        model(loader).sum().backward()
        opt.step()
        es.step(evaluate(model), model)
    model.load_state_dict(es.best_state)


def evaluate_only(model, loader, evaluate):
    es = EarlyStopping()
    for x in loader:
        es.step(evaluate(model), model)
    model.load_state_dict(es.best_state)
"""


def test_a_callback_of_another_module_keeps_the_live_state_dict(tmp_path):
    """The class binds ``self.best_state = model.state_dict()`` and never loads it; the caller,
    in another file, trains in the loop that calls it and loads ``es.best_state`` afterwards.
    Reported once per binding, at the bindings (the lines to change), not at the load."""
    (tmp_path / "callbacks.py").write_text(CALLBACKS)
    (tmp_path / "fit.py").write_text(FIT)
    proc = flake8("--select", "TEN402", "fit.py", "callbacks.py", cwd=str(tmp_path))
    got = {(m["path"], int(m["line"])) for m in LINE.finditer(proc.stdout)}
    assert got == {("callbacks.py", 14), ("callbacks.py", 21)}, proc.stdout
    assert "`load_state_dict(es.best_state)` in fit.py, line 13" in proc.stdout


def test_a_function_of_a_module_imported_whole_is_summarised_through_flake8(tmp_path):
    """``import ckpt`` ... ``best = ckpt.snapshot(model)``: the call runs the project function
    ``ckpt.snapshot``, whose summary says it returns a live state dict (before: only a name
    imported with ``from ckpt import snapshot`` or a method of a project instance was
    followed); a function of that module that copies is not."""
    (tmp_path / "setup.py").write_text("")
    (tmp_path / "ckpt.py").write_text(textwrap.dedent("""\
        import copy


        def snapshot(model):
            return model.state_dict()


        def copied(model):
            return copy.deepcopy(model.state_dict())
    """))
    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        import ckpt


        def fit(model, opt, batches, evaluate):
            best, kept, best_acc = None, None, 0
            for x in batches:
                opt.step()
                acc = evaluate(model)
                if acc > best_acc:
                    best_acc = acc
                    best = ckpt.snapshot(model)
                    kept = ckpt.copied(model)
            model.load_state_dict(best)
            model.load_state_dict(kept)
    """))
    proc = flake8("--select", "TEN402", "train.py", cwd=str(tmp_path))
    got = {(int(m["line"]), m["code"]) for m in LINE.finditer(proc.stdout)}
    assert got == {(11, "TEN402")}, proc.stdout
    assert "`snapshot()` returns `model.state_dict()`" in proc.stdout


def test_summary_loads_its_parameter():
    assert summarize("def restore(model, state):\n    model.load_state_dict(state)\n").loads == {1}
    assert summarize("def put(self, sd):\n    self.model.load_state_dict(sd, strict=False)\n"
                     ).loads == {1}
    assert summarize("def put(self, sd):\n    self.model.load_state_dict(sd['model'])\n"
                     ).loads == frozenset()


STATE_UTILS = """\
import copy


def capture_state(model):
    return dict(model.state_dict())


def capture_state_copy(model):
    return copy.deepcopy(model.state_dict())


def restore_state(model, state):
    model.load_state_dict(state, strict=False)
"""

EARLY_STOP = """\
from proj.state_utils import capture_state, capture_state_copy, restore_state


class Trainer:
    def __init__(self, model, opt):
        self.model, self.opt = model, opt
        self.best_state = self.init_state = None

    def fit(self, train, validate, epochs):
        self.init_state = capture_state_copy(self.model)
        best = float("inf")
        for epoch in range(epochs):
            train(self.model, self.opt)
            loss = validate(self.model)
            if loss < best:
                best = loss
                self.best_state = capture_state(self.model)
            elif loss > 10 * best:
                restore_state(self.model, self.init_state)
        restore_state(self.model, self.best_state)
"""


def test_snapshot_made_and_loaded_by_functions_of_a_namespace_package(tmp_path):
    """A snapshot a function of another module makes (``dict(model.state_dict())``) and another
    loads (its summary's ``loads``: ``handed_to_loader``), in a package folder without
    ``__init__.py`` linted from inside it."""
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "state_utils.py").write_text(STATE_UTILS)
    (tmp_path / "proj" / "trainer.py").write_text(EARLY_STOP)
    proc = flake8("--select", "TEN402", "trainer.py", cwd=str(tmp_path / "proj"))
    got = {(int(m["line"]), m["code"]) for m in LINE.finditer(proc.stdout)}
    assert got == {(17, "TEN402")}, proc.stdout + proc.stderr
    assert "`capture_state()` returns `dict(model.state_dict())`" in proc.stdout


def test_frozen_local_teacher_through_flake8(tmp_path):
    """A function's own module frozen and put in eval mode, then only run forward: its state
    dict keeps its values (``frozen_local``); handed to an optimizer or aliased, it does not.
    Linted outside this repository, as a user's script (inside it, the fixture's public
    function is left alone for its unknown callers)."""
    fixture = os.path.join(FIXTURES, "state_dict_frozen_local.py")
    with open(fixture, encoding="utf-8") as fh:
        src = fh.read()
    want = {(i, "TEN402") for i, line in enumerate(src.splitlines(), 1) if "expect: TEN402" in line}
    (tmp_path / "distil.py").write_text(src)
    proc = flake8("--select", "TEN402", "distil.py", cwd=str(tmp_path))
    got = {(int(m["line"]), m["code"]) for m in LINE.finditer(proc.stdout)}
    assert got == want and len(want) == 3, proc.stdout + proc.stderr


LEARNER = """\
import copy

import torch


class Learner:
    def __init__(self, model, opt):
        self.model, self.opt = model, opt

    def weights(self):
        return self.model.state_dict()

    def weights_copy(self):
        return copy.deepcopy(self.model.state_dict())

    def load_weights(self, state):
        self.model.load_state_dict(state)

    def fit_one_epoch(self, batches):
        for x, y in batches:
            self.opt.zero_grad()
            torch.nn.functional.mse_loss(self.model(x), y).backward()
            self.opt.step()


def train_with_patience(learner, train_dl, score, epochs=50):
    best, best_w, kept = float("-inf"), None, None
    for epoch in range(epochs):
        learner.fit_one_epoch(train_dl)
        s = score(learner.model)
        if s > best:
            best = s
            best_w = learner.weights()
            kept = learner.weights_copy()
    learner.load_weights(best_w)
    learner.load_weights(kept)
    return best
"""


def test_wrapper_dict_kept_by_a_plain_function(tmp_path):
    """``best_w = learner.weights()`` of the file's method returning a live state dict, kept by
    a plain function (not a method) and handed to the file's loader method: the pre-filter
    keeps such a function too (``Proof.calls_live_returner``)."""
    (tmp_path / "learner.py").write_text(LEARNER)
    proc = flake8("--select", "TEN402", "learner.py", cwd=str(tmp_path))
    got = {(int(m["line"]), m["code"]) for m in LINE.finditer(proc.stdout)}
    assert got == {(33, "TEN402")}, proc.stdout + proc.stderr


def test_snapshot_loaded_by_a_project_function_through_a_conditional(tmp_path):
    """``rewind(model, late if late is not None else init)``: either branch is handed to the
    loader (lottery-ticket rewinding, flat modules of one folder)."""
    (tmp_path / "pruning.py").write_text(
        "def snapshot_weights(model):\n"
        "    return {n: t for n, t in model.state_dict().items() if 'num' not in n}\n\n\n"
        "def rewind(model, state):\n"
        "    model.load_state_dict(state, strict=False)\n")
    (tmp_path / "lth.py").write_text(
        "from pruning import rewind, snapshot_weights\n\n\n"
        "def run(model, opt, batches, levels, late):\n"
        "    init_state = snapshot_weights(model)\n"
        "    for level in range(levels):\n"
        "        for x in batches:\n"
        "            model(x).sum().backward()\n"
        "            opt.step()\n"
        "        rewind(model, late if late is not None else init_state)\n")
    proc = flake8("--select", "TEN402", "lth.py", cwd=str(tmp_path))
    got = {(int(m["line"]), m["code"]) for m in LINE.finditer(proc.stdout)}
    assert got == {(5, "TEN402")}, proc.stdout + proc.stderr


def test_state_dict_through_a_constant_getattr():
    """``getattr(model, "state_dict")()`` is ``model.state_dict()``; a name that is not a
    constant, another method's name, or a default argument is not."""
    recv = state_dict_receiver(parse_expression('getattr(trainer.model, "state_dict")()'))
    assert recv is not None and recv.attr.value == "model"
    assert state_dict_receiver(parse_expression("getattr(model, name)()")) is None
    assert state_dict_receiver(parse_expression('getattr(model, "parameters")()')) is None
    assert constant_getattr(parse_expression('getattr(m, "state_dict", None)'), "state_dict") \
        is None
    assert live('getattr(model, "state_dict")().copy()') is not None


def test_views_share_storage():
    """A view of the tensor shares its storage: everywhere for ``view``, where the tensor is
    contiguous (as a module's parameters are) for ``reshape`` and ``flatten``; a copy of the
    view does not."""
    assert same_storage(parse_expression("p.view(-1)"), "p") == ""
    assert same_storage(parse_expression("p.reshape(-1)"), "p") == "for contiguous tensors"
    assert same_storage(parse_expression("p.detach().flatten()"), "p") == \
        "for contiguous tensors"
    assert same_storage(parse_expression("p.reshape(-1).clone()"), "p") is None
    got = live("[p.reshape(-1) for p in critic.parameters()]")
    assert got is not None and got.params and got.where == "for contiguous tensors"
