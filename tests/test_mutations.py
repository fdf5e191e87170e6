"""Mutation testing of `tensorcopy verify`: break torch's behaviour, a fix or the timer on purpose
and check that verify notices.

Each mutation monkeypatches one behaviour (a torch function or method, the fixer's output, or the
timer) and names the claims it must kill: verify must report each of them as "does not hold".
Every claim of every rule is killed by at least one mutation. Speed claims run on synthetic
timings here (a deterministic cost model in place of the real timer), so no verdict depends on the
load of the machine; without a mutation every claim holds on them.
"""
import random
import re
import warnings
from dataclasses import dataclass
from typing import Callable, FrozenSet, Tuple

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed; verify needs it")

from flake8_tensorcopy.rules import ALL_RULES  # noqa: E402
from flake8_tensorcopy.verify import equivalence  # noqa: E402
from flake8_tensorcopy.verify import run as runner  # noqa: E402
from flake8_tensorcopy.verify.stats import DOES_NOT_HOLD, HOLDS, NOT_RUN  # noqa: E402

CUDA = torch.cuda.is_available()

# ---------------------------------------------------------------- synthetic timings
#: statements the cost model makes 40% slower (the "A" side of every speed claim)
SLOW_IDIOMS = ("torch.tensor(", ".clone().detach()", "torch.empty_like(")


def _cost(stmt: str) -> float:
    return 1e-6 * (1.4 if any(s in stmt for s in SLOW_IDIOMS) else 1.0)


def synthetic_sampler(a, b, env, no_grad, rounds):
    """Per-round seconds from the cost model with +-1% deterministic jitter."""
    rng = random.Random(f"{a}|{b}|{no_grad}|{sorted(env)}")
    per_a = [_cost(a) * (1 + rng.uniform(-0.01, 0.01)) for _ in range(rounds)]
    per_b = [_cost(b) * (1 + rng.uniform(-0.01, 0.01)) for _ in range(rounds)]
    return per_a, per_b


# ---------------------------------------------------------------- mutations of torch
def _tensor_base(name):
    return torch._C.TensorBase.__dict__[name]


def detach_returns_clone(mp):
    orig = torch.Tensor.detach
    mp.setattr(torch.Tensor, "detach", lambda self: orig(self).clone())


def data_acts_like_detach(mp):
    desc = _tensor_base("data")
    mp.setattr(torch.Tensor, "data", property(lambda self: self.detach(), desc.__set__))


def setitem_buffers_overlap(mp):
    """``x[i] = v`` copies ``v`` first, as NumPy does for overlapping arrays."""
    orig = torch.Tensor.__setitem__

    def setitem(self, index, value):
        if isinstance(value, torch.Tensor):
            value = value.detach().clone() if not value.requires_grad else value.clone()
        return orig(self, index, value)

    mp.setattr(torch.Tensor, "__setitem__", setitem)


def state_dict_returns_copies(mp):
    import copy
    orig = torch.nn.Module.state_dict
    mp.setattr(torch.nn.Module, "state_dict",
               lambda self, *a, **k: copy.deepcopy(orig(self, *a, **k)))


def cpu_returns_copy(mp):
    orig = torch.Tensor.cpu
    mp.setattr(torch.Tensor, "cpu", lambda self, *a, **k: orig(self, *a, **k).clone())


def optimizer_state_dict_deepcopies(mp):
    import copy
    orig = torch.optim.Optimizer.state_dict
    mp.setattr(torch.optim.Optimizer, "state_dict", lambda self: copy.deepcopy(orig(self)))


def optimizer_state_dict_is_live(mp):
    """``state_dict()`` handing out the optimizer's own state and param groups."""
    mp.setattr(torch.optim.Optimizer, "state_dict",
               lambda self: {"state": self.state, "param_groups": self.param_groups})


def tensor_deepcopy_shares(mp):
    mp.setattr(torch.Tensor, "__deepcopy__", lambda self, memo: self)


def clone_returns_input(mp):
    mp.setattr(torch.Tensor, "clone", lambda self, *a, **k: self)


def _wrap_tensor(mp, replace):
    orig = torch.tensor

    def tensor(data, *args, **kwargs):
        got = replace(orig, data, *args, **kwargs)
        return orig(data, *args, **kwargs) if got is NotImplemented else got

    mp.setattr(torch, "tensor", tensor)


def tensor_warning_recommends_clone_detach(mp):
    def replace(orig, data, *args, **kwargs):
        if not isinstance(data, torch.Tensor):
            return NotImplemented
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = orig(data, *args, **kwargs)
        warnings.warn("To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.clone().detach() or sourceTensor.clone().detach()"
                      ".requires_grad_(True), rather than torch.tensor(sourceTensor).",
                      UserWarning)
        return out
    _wrap_tensor(mp, replace)


def tensor_keeps_graph(mp):
    def replace(orig, data, *args, **kwargs):
        if isinstance(data, torch.Tensor) and not args and not kwargs:
            return data.clone()
        if isinstance(data, list) and data and all(isinstance(x, torch.Tensor) for x in data):
            return torch.stack(data)
        return NotImplemented
    _wrap_tensor(mp, replace)


def tensor_casts_to_float64(mp):
    def replace(orig, data, *args, **kwargs):
        if not isinstance(data, torch.Tensor):
            return NotImplemented
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return orig(data, *args, **kwargs).to(torch.float64)
    _wrap_tensor(mp, replace)


def tensor_list_via_stack(mp):
    def replace(orig, data, *args, **kwargs):
        if isinstance(data, list) and data and all(isinstance(x, torch.Tensor) for x in data):
            return torch.stack(data).detach().to(kwargs.get("device") or data[0].device)
        return NotImplemented
    _wrap_tensor(mp, replace)


def new_tensor_keeps_source_dtype(mp):
    orig = torch.Tensor.new_tensor

    def new_tensor(self, data, *args, **kwargs):
        if isinstance(data, torch.Tensor):
            return data.detach().clone()
        return orig(self, data, *args, **kwargs)
    mp.setattr(torch.Tensor, "new_tensor", new_tensor)


def new_tensor_keeps_source_device(mp):
    orig = torch.Tensor.new_tensor

    def new_tensor(self, data, *args, **kwargs):
        if isinstance(data, torch.Tensor):
            return data.detach().to(dtype=kwargs.get("dtype") or self.dtype, copy=True)
        return orig(self, data, *args, **kwargs)
    mp.setattr(torch.Tensor, "new_tensor", new_tensor)


def inplace_skips_version_counter(mp):
    """``add_``, ``mul_`` and ``zero_`` write through ``.data``: the version counter stays."""
    get_data = _tensor_base("data").__get__
    for name in ("add_", "mul_", "zero_"):
        orig = getattr(torch.Tensor, name)

        def op(self, *args, _orig=orig, **kwargs):
            _orig(get_data(self), *args, **kwargs)
            return self
        mp.setattr(torch.Tensor, name, op)


def backward_raises_other_error(mp):
    def backward(self, *args, **kwargs):
        raise RuntimeError("mutated: backward is unavailable")
    mp.setattr(torch.Tensor, "backward", backward)


def empty_like_ignores_layout(mp):
    orig = torch.empty_like

    def empty_like(t, *args, **kwargs):
        kwargs["memory_format"] = torch.contiguous_format
        return orig(t, *args, **kwargs)
    mp.setattr(torch, "empty_like", empty_like)


def float_tensor_converts(mp):
    orig = torch.FloatTensor

    def FloatTensor(*args, **kwargs):
        if len(args) == 1 and isinstance(args[0], torch.Tensor):
            return args[0].float()
        return orig(*args, **kwargs)
    mp.setattr(torch, "FloatTensor", FloatTensor)


def data_setter_is_tracked(mp):
    desc = _tensor_base("data")

    def set_data(self, new):
        desc.__set__(self, new)
        torch.autograd.graph.increment_version(self)
    mp.setattr(torch.Tensor, "data", property(desc.__get__, set_data))


def data_setter_keeps_dtype(mp):
    desc = _tensor_base("data")
    mp.setattr(torch.Tensor, "data",
               property(desc.__get__, lambda self, new: desc.__set__(self, new.to(self.dtype))))


def add_detaches(mp):
    """``a + b`` (and ``+=``) returns a tensor without a graph: accumulating keeps nothing."""
    for name in ("__add__", "__radd__", "__iadd__"):
        orig = getattr(torch.Tensor, name)

        def op(self, other, _orig=orig):
            out = _orig(self, other)
            return out.detach() if isinstance(out, torch.Tensor) else out
        mp.setattr(torch.Tensor, name, op)


def eval_disables_grad(mp):
    """A module in ``eval()`` mode runs under ``no_grad`` (what many users believe)."""
    orig = torch.nn.Module.__call__

    def call(self, *args, **kwargs):
        if not self.training:
            with torch.no_grad():
                return orig(self, *args, **kwargs)
        return orig(self, *args, **kwargs)
    mp.setattr(torch.nn.Module, "__call__", call)


def detach_keeps_graph(mp):
    """``detach()`` returns a view that is still part of the graph."""
    mp.setattr(torch.Tensor, "detach", lambda self: self.view_as(self))


# ---------------------------------------------------------------- mutations of the fixes
def _mutate_fix(mp, transform):
    orig = equivalence.fixed_source

    def fixed_source(rule_code, body):
        return transform(orig(rule_code, body))
    mp.setattr(equivalence, "fixed_source", fixed_source)


def _last_return(transform):
    def apply(src):
        lines = src.rstrip("\n").split("\n")
        for i in range(len(lines) - 1, -1, -1):
            m = re.match(r"(\s*)return (.+)$", lines[i])
            if m:
                lines[i] = m.group(1) + "return " + transform(m.group(2))
                break
        return "\n".join(lines) + "\n"
    return apply


def fix_drops_clone(mp):
    _mutate_fix(mp, lambda s: re.sub(r"\.detach\(\)\.clone\([^()]*\)", ".detach()", s))


def fix_to_without_copy(mp):
    _mutate_fix(mp, lambda s: s.replace(", copy=True)", ")"))


def fix_adds_detach(mp):
    _mutate_fix(mp, _last_return(lambda e: f"({e}).detach()"))


def fix_zeroes_result(mp):
    _mutate_fix(mp, _last_return(lambda e: f"({e}) * 0"))


def fix_copies_array(mp):
    _mutate_fix(mp, lambda s: s.replace(".numpy()", ".numpy().copy()"))


def fix_drops_no_grad(mp):
    _mutate_fix(mp, lambda s: s.replace("with torch.no_grad():", "if True:"))


def fix_not_applied(mp):
    mp.setattr(equivalence, "fixed_source",
               lambda rule_code, body: equivalence.case_source(body))


def fix_writes_rejected(mp):
    """The fixer rewrites what no fix may touch (a case with ``fixed=False``) into the rejected
    rewrite the case names: a deliberate alias write turned into a copy, say."""
    rejected = {(r.code, c.body): c.rejected for r in ALL_RULES for c in r.fix_cases
                if not getattr(c, "fixed", True) and getattr(c, "rejected", None)}
    orig = equivalence.fixed_source

    def fixed_source(rule_code, body):
        if (rule_code, body) in rejected:
            return equivalence.case_source(rejected[(rule_code, body)])
        return orig(rule_code, body)
    mp.setattr(equivalence, "fixed_source", fixed_source)


def conversions_always_copy(mp):
    """``.cpu()``, ``.float()``, ``.to()``, ``.type()``, ``.contiguous()`` copy even when there
    is nothing to convert."""
    for name in ("cpu", "float", "to", "type", "contiguous"):
        orig = getattr(torch.Tensor, name)
        mp.setattr(torch.Tensor, name,
                   (lambda o: lambda self, *a, **k: o(self, *a, **k).clone())(orig))


def to_ignores_copy(mp):
    orig = torch.Tensor.to

    def to(self, *a, copy=False, **k):
        return orig(self, *a, **k)
    mp.setattr(torch.Tensor, "to", to)


def cpu_returns_self(mp):
    """``.cpu()`` of a CUDA tensor returns it (as on CPU)."""
    mp.setattr(torch.Tensor, "cpu", lambda self, *a, **k: self)


def bridge_copies(mp):
    orig_from, orig_numpy = torch.from_numpy, torch.Tensor.numpy
    orig_as = torch.as_tensor
    mp.setattr(torch, "from_numpy", lambda a: orig_from(a.copy()))
    mp.setattr(torch, "as_tensor", lambda a, *r, **k: orig_as(
        a.copy() if hasattr(a, "__array_interface__") else a, *r, **k))
    mp.setattr(torch.Tensor, "numpy", lambda self, *a, **k: orig_numpy(self, *a, **k).copy())
    import numpy as np
    orig_asarray = np.asarray
    mp.setattr(np, "asarray", lambda a, *r, **k: orig_asarray(a, *r, **k).copy()
               if isinstance(a, torch.Tensor) else orig_asarray(a, *r, **k))


def tensor_of_array_shares(mp):
    """``torch.tensor(a)`` of an array shares its memory like ``as_tensor``."""
    orig = torch.tensor
    mp.setattr(torch, "tensor", lambda data, *a, **k: torch.as_tensor(data, *a, **k)
               if hasattr(data, "__array_interface__") else orig(data, *a, **k))


def expand_copies(mp):
    orig = torch.Tensor.expand
    mp.setattr(torch.Tensor, "expand", lambda self, *a, **k: orig(self, *a, **k).clone())


def add_out_of_place(mp):
    """``t.add_(v)`` computes ``t + v`` and leaves ``t`` as it was."""
    mp.setattr(torch.Tensor, "add_", lambda self, *a, **k: self.add(*a, **k))


def _fix_cases(fixed: bool):
    """(code, fix-N) of the fix cases that do (``fixed``) or do not offer a fix."""
    return frozenset((r.code, f"fix-{i}") for r in ALL_RULES
                     for i, c in enumerate(r.fix_cases, 1) if getattr(c, "fixed", True) == fixed)


# ---------------------------------------------------------------- mutations of the timer
def timer_times_b_for_a(sampler):
    return lambda a, b, env, no_grad, rounds: sampler(b, b, env, no_grad, rounds)


def timer_swaps_a_and_b(sampler):
    return lambda a, b, env, no_grad, rounds: sampler(b, a, env, no_grad, rounds)


@dataclass(frozen=True)
class Mutation:
    name: str
    apply: Callable
    kills: FrozenSet[Tuple[str, str]]
    devices: Tuple[str, ...] = ("cpu", "cuda")
    timer: bool = False  # ``apply`` wraps the sampler instead of patching
    #: kills that hold on CPU only, though their claim or case is about CUDA too (``t.cpu()``
    #: of a CUDA tensor copies whatever ``detach`` does, so sharing cannot show there)
    cpu_only: FrozenSet[Tuple[str, str]] = frozenset()

    def kills_on(self, device):
        if device not in self.devices:
            return frozenset()
        kills = self.kills if device == "cpu" else self.kills - self.cpu_only
        return kills & _all_claims(device)


def _k(*pairs):
    out = set()
    for pair in pairs:
        rule, ids = pair.split(" ", 1)
        out |= {(rule, i) for i in ids.split(",")}
    return frozenset(out)


SPEED = _k("TEN201 tensor-slower-than-detach-clone", "TEN204 tensor-list-slower-than-stack",
           "TEN301 detach-clone-faster-when-rg", "TEN302 like-copy-slower-than-clone")

MUTATIONS = (
    Mutation("detach-returns-clone", detach_returns_clone, _k(
        "TEN101 detach-shares-memory-and-version,fix-3,fix-4,fix-5", "TEN102 detach-write-raises",
        "TEN401 detach-write-reaches-source"), cpu_only=_k("TEN101 fix-4")),
    Mutation("data-acts-like-detach", data_acts_like_detach, _k(
        "TEN101 data-shares-memory-not-version", "TEN102 data-write-silent-wrong-grad")),
    Mutation("clone-returns-input", clone_returns_input, _k(
        "TEN301 clone-records-then-detach-drops,fix-2", "TEN101 fix-1", "TEN201 fix-1,fix-4",
        "TEN202 fix-2", "TEN302 fix-1,fix-2,fix-3", "TEN401 detach-write-reaches-source",
        "TEN403 column-shift-silently-wrong,augmented-shift-silently-wrong,first-dim-shift-raises")),
    Mutation("state-dict-returns-copies", state_dict_returns_copies, _k(
        "TEN402 shallow-snapshots-follow-step,cpu-snapshot-is-the-tensors-on-cpu,"
        "float-and-numpy-snapshots-are-the-tensors")),
    Mutation("cpu-returns-copy", cpu_returns_copy, _k(
        "TEN402 cpu-snapshot-is-the-tensors-on-cpu"), devices=("cpu",)),
    Mutation("optimizer-state-dict-deepcopies", optimizer_state_dict_deepcopies, _k(
        "TEN402 optimizer-state-follows-step")),
    Mutation("optimizer-state-dict-is-live", optimizer_state_dict_is_live, _k(
        "TEN402 fresh-optimizer-snapshot-holds-nothing-live")),
    Mutation("tensor-deepcopy-shares", tensor_deepcopy_shares, _k(
        "TEN402 deep-snapshots-keep-old-weights")),
    Mutation("setitem-buffers-overlap", setitem_buffers_overlap, _k(
        "TEN403 column-shift-silently-wrong,first-dim-shift-raises,cuda-shifts-differ")),
    Mutation("add-detaches", add_detaches, _k(
        "TEN501 after-backward-keeps-graph,memory-grows-per-step")),
    Mutation("eval-disables-grad", eval_disables_grad, _k(
        "TEN501 no-backward-keeps-activations,memory-grows-per-step")),
    Mutation("detach-keeps-graph", detach_keeps_graph, _k(
        "TEN501 after-backward-keeps-graph,stored-per-index-keeps-graph,bounded-queue-keeps-graph,"
        "step-closure-returns-the-loss,no-backward-keeps-activations,memory-grows-per-step")),
    Mutation("tensor-warning-recommends-clone-detach", tensor_warning_recommends_clone_detach,
             _k("TEN201 tensor-warns")),
    Mutation("tensor-keeps-graph", tensor_keeps_graph, _k(
        "TEN201 tensor-is-detached-copy,tensor-warns,fix-1", "TEN204 tensor-list-drops-graph")),
    Mutation("tensor-casts-to-float64", tensor_casts_to_float64, _k(
        "TEN201 tensor-device-equals-to-copy,tensor-warns,fix-1,fix-3,fix-4")),
    Mutation("new-tensor-keeps-source-dtype", new_tensor_keeps_source_dtype, _k(
        "TEN202 new-tensor-takes-receiver-dtype,fix-1,fix-3")),
    Mutation("inplace-skips-version-counter", inplace_skips_version_counter, _k(
        "TEN101 detach-shares-memory-and-version", "TEN102 detach-write-raises,no-grad-write-tracked",
        "TEN203 legacy-constructor-aliases")),
    Mutation("backward-raises-other-error", backward_raises_other_error, _k(
        "TEN102 data-write-silent-wrong-grad,detach-write-raises,no-grad-write-tracked",
        "TEN103 data-assign-silent")),
    Mutation("empty-like-ignores-layout", empty_like_ignores_layout, _k(
        "TEN302 like-copy-same-gradients,fix-1")),
    Mutation("float-tensor-converts", float_tensor_converts, _k(
        "TEN203 legacy-constructor-dtype-mismatch"), devices=("cpu",)),
    Mutation("data-setter-is-tracked", data_setter_is_tracked, _k("TEN103 data-assign-silent")),
    Mutation("data-setter-keeps-dtype", data_setter_keeps_dtype, _k(
        "TEN103 data-assign-changes-dtype-shape")),
    Mutation("fix-drops-clone", fix_drops_clone, _k(
        "TEN101 fix-1", "TEN201 fix-1,fix-4", "TEN202 fix-2",
        "TEN301 fix-1,fix-2,fix-3,fix-4", "TEN401 fix-1")),
    Mutation("fix-to-without-copy", fix_to_without_copy, _k(
        "TEN201 fix-2,fix-5", "TEN202 fix-1,fix-3")),
    Mutation("fix-adds-detach", fix_adds_detach, _k(
        "TEN101 fix-5", "TEN102 fix-1,fix-2,fix-3,fix-4", "TEN201 fix-4,fix-5",
        "TEN302 fix-1,fix-2,fix-3")),
    Mutation("fix-zeroes-result", fix_zeroes_result, _k(
        "TEN101 fix-1,fix-2,fix-3,fix-4,fix-5", "TEN102 fix-1,fix-2,fix-3,fix-4",
        "TEN201 fix-1,fix-2,fix-3,fix-4,fix-5", "TEN202 fix-1,fix-2,fix-3", "TEN204 fix-1",
        "TEN301 fix-1,fix-2,fix-3,fix-4", "TEN302 fix-1,fix-2,fix-3", "TEN401 fix-1")),
    Mutation("fix-copies-array", fix_copies_array, _k("TEN101 fix-5"), devices=("cpu",)),
    Mutation("fix-drops-no-grad", fix_drops_no_grad, _k("TEN102 fix-1,fix-2,fix-3")),
    Mutation("conversions-always-copy", conversions_always_copy, _k(
        "TEN404 no-op-conversions-return-self-on-cpu,write-through-conversion-reaches-source")),
    Mutation("to-ignores-copy", to_ignores_copy, _k(
        "TEN404 conversions-copy-when-something-converts")),
    Mutation("cpu-returns-self", cpu_returns_self, _k("TEN404 cpu-copies-from-cuda"),
             devices=("cuda",)),
    Mutation("bridge-copies", bridge_copies, _k("TEN405 bridge-shares-memory"),
             devices=("cpu",)),
    Mutation("tensor-of-array-shares", tensor_of_array_shares, _k("TEN405 bridge-copies"),
             devices=("cpu",)),
    Mutation("expand-copies", expand_copies, _k("TEN406 expand-row-write-is-silent")),
    Mutation("add-out-of-place", add_out_of_place, _k(
        "TEN406 repeated-list-is-one-tensor", "TEN404 write-through-conversion-reaches-source")),
    Mutation("fix-not-applied", fix_not_applied, _fix_cases(True)),
    Mutation("fix-writes-rejected", fix_writes_rejected, _fix_cases(False)),
    Mutation("timer-times-b-for-a", timer_times_b_for_a, SPEED, timer=True),
    Mutation("timer-swaps-a-and-b", timer_swaps_a_and_b, SPEED, timer=True),
    Mutation("new-tensor-keeps-source-device", new_tensor_keeps_source_device, _k(
        "TEN202 new-tensor-takes-receiver-device"), devices=("cuda",)),
    Mutation("tensor-list-via-stack", tensor_list_via_stack, _k(
        "TEN204 tensor-list-syncs-per-element,tensor-list-lands-on-cpu"), devices=("cuda",)),
)


def _all_claims(device):
    out = set()
    for rule in ALL_RULES:
        out |= {(rule.code, c.id) for c in rule.claims if device in c.devices}
        out |= {(rule.code, f"fix-{i}") for i, case in enumerate(rule.fix_cases, 1)
                if device in case.devices}
    return out


def _run(device, codes, sampler=synthetic_sampler):
    results = runner.run(torch, [device], codes, quick=True, sampler=sampler)
    return {(r.rule, r.id): r for r in results if r.device == device}


def test_every_mutation_kills_something_on_each_of_its_devices():
    """Checked without a GPU: a mutation declared for CUDA must kill a claim or case that is about
    CUDA (the suite's CUDA tests run only where one is lent, and found three that killed none)."""
    idle = [(m.name, d) for m in MUTATIONS for d in m.devices if not m.kills_on(d)]
    assert idle == []
    assert all(m.cpu_only <= m.kills for m in MUTATIONS)


def test_every_claim_is_killed_by_a_mutation():
    for device in ("cpu", "cuda"):
        killed = set().union(*(m.kills_on(device) for m in MUTATIONS))
        assert _all_claims(device) - killed == set(), device
    declared = set().union(*(m.kills for m in MUTATIONS))
    assert declared <= _all_claims("cpu") | _all_claims("cuda")


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=pytest.mark.skipif(
    not CUDA, reason="no CUDA device"))])
def test_without_mutation_every_claim_holds(device):
    """The control: on the same synthetic timings, unmutated, every claim holds."""
    results = _run(device, None)
    bad = {k: (r.status, r.reason or r.measured) for k, r in results.items() if r.status != HOLDS}
    assert not bad
    assert set(results) == _all_claims(device)


def _params():
    for m in MUTATIONS:
        for device in m.devices:
            marks = [pytest.mark.skipif(not CUDA, reason="no CUDA device")] if device == "cuda" else []
            yield pytest.param(m, device, id=f"{m.name}-{device}", marks=marks)


@pytest.mark.parametrize("mutation,device", list(_params()))
def test_mutation_is_killed(mutation, device, monkeypatch):
    kills = mutation.kills_on(device)
    assert kills, f"{mutation.name} kills nothing on {device}"
    sampler = synthetic_sampler
    if mutation.timer:
        sampler = mutation.apply(synthetic_sampler)
    else:
        mutation.apply(monkeypatch)
    try:
        results = _run(device, sorted({r for r, _ in kills}), sampler)
    finally:
        monkeypatch.undo()
    survived = {k: (results[k].status, results[k].measured) for k in kills
                if k not in results or results[k].status != DOES_NOT_HOLD}
    assert not survived, f"{mutation.name} not noticed by: {sorted(survived)}"
    # a mutation never makes a false claim hold by accident: nothing is reported as not run
    assert all(r.status != NOT_RUN for k, r in results.items() if k in _all_claims(device))
