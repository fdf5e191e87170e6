"""TEN402's claims, run by ``tensorcopy verify``: shallow snapshots of a state dict follow the
next optimizer step, deep ones keep the old weights, ``{k: v.cpu()}`` is the same tensors on the
CPU, an optimizer's state tensors move. torch arrives through the verifier's helper ``v``:
importing this never imports torch."""
from __future__ import annotations


def _trained(v, make):
    """A Linear layer, its snapshot by ``make`` and its weight before and after one SGD step."""
    torch = v.torch
    torch.manual_seed(0)
    m = torch.nn.Linear(3, 2).to(v.device)
    opt = torch.optim.SGD(m.parameters(), lr=0.5)
    snap = make(m)
    before = m.weight.detach().clone()
    m(torch.ones(4, 3, device=v.device)).pow(2).sum().backward()
    opt.step()
    return m, snap, before


def _shallow_forms(v):
    import collections
    import copy
    return {
        "state_dict()": lambda m: m.state_dict(),
        ".copy()": lambda m: m.state_dict().copy(),
        "dict()": lambda m: dict(m.state_dict()),
        "OrderedDict()": lambda m: collections.OrderedDict(m.state_dict()),
        "copy.copy()": lambda m: copy.copy(m.state_dict()),
        "{k: v}": lambda m: {k: t for k, t in m.state_dict().items()},
        "{k: v.detach()}": lambda m: {k: t.detach() for k, t in m.state_dict().items()},
        "{**sd}": lambda m: {**m.state_dict()},
        "dict(sd.items())": lambda m: dict(m.state_dict().items()),
        "list(sd.values())": lambda m: dict(zip(m.state_dict(), list(m.state_dict().values()))),
        'sd["weight"]': lambda m: {"weight": m.state_dict()["weight"]},
        "{k: v.contiguous()}": lambda m: {k: t.contiguous() for k, t in m.state_dict().items()},
        "{k: v.to(device)} (the module's own)":
            lambda m: {k: t.to(m.weight.device) for k, t in m.state_dict().items()},
        "list(parameters())": lambda m: dict(zip(("weight", "bias"), list(m.parameters()))),
        "[p.data for p in parameters()]":  # the form measured is the ``.data`` one
            lambda m: dict(zip(("weight", "bias"), [p.data for p in m.parameters()])),  # noqa: TEN101
        "{n: p.detach() for n, p in named_parameters()}":
            lambda m: {n: p.detach() for n, p in m.named_parameters()},
    }


def shallow_snapshots_follow_step(v):
    torch = v.torch
    measured = {}
    ok = True
    for name, make in _shallow_forms(v).items():
        m, snap, before = _trained(v, make)
        follows = bool(torch.equal(snap["weight"], m.weight.detach())) and \
            not bool(torch.equal(snap["weight"], before))
        measured[name] = "follows the step" if follows else "kept the old weights"
        ok = ok and follows
    return ok, measured


def cpu_snapshot_is_the_tensors_on_cpu(v):
    """``{k: v.cpu() ...}`` follows the step where the module is on the CPU (``.cpu()`` of a
    CPU tensor returns it), and keeps the old weights where it is not (a copy)."""
    torch = v.torch
    m, snap, before = _trained(v, lambda m: {k: t.cpu() for k, t in m.state_dict().items()})
    follows = bool(torch.equal(snap["weight"], m.weight.detach().cpu())) and \
        not bool(torch.equal(snap["weight"], before.cpu()))
    on_cpu = m.weight.device.type == "cpu"
    return follows == on_cpu, {"device": m.weight.device.type,
                               "snapshot": "follows the step" if follows else "kept the old weights"}


def float_and_numpy_snapshots_are_the_tensors(v):
    """``{k: v.float() ...}`` of a float32 module and ``{k: v.cpu().numpy() ...}`` of a module on
    the CPU follow the step (the same tensors; the same memory); ``{k: v.double() ...}`` keeps
    the old weights (a conversion that converts copies)."""
    torch = v.torch
    measured = {}
    ok = True
    for name, make, same in (
            ("{k: v.float()}", lambda m: {k: t.float() for k, t in m.state_dict().items()}, True),
            ("{k: v.to(torch.float32)}",
             lambda m: {k: t.to(torch.float32) for k, t in m.state_dict().items()}, True),
            ("{k: v.cpu().numpy()}",
             lambda m: {k: torch.from_numpy(t.cpu().numpy()) for k, t in m.state_dict().items()},
             True),
            ("{k: v.double()}", lambda m: {k: t.double() for k, t in m.state_dict().items()},
             False)):
        m, snap, before = _trained(v, make)
        now = m.weight.detach().to(snap["weight"].dtype)
        follows = bool(torch.equal(snap["weight"], now)) and \
            not bool(torch.equal(snap["weight"], before.to(snap["weight"].dtype)))
        measured[name] = "follows the step" if follows else "kept the old weights"
        ok = ok and follows == same
    return ok, measured


def deep_snapshots_keep_old_weights(v):
    import copy
    torch = v.torch
    measured = {}
    ok = True
    for name, make in {
        "copy.deepcopy()": lambda m: copy.deepcopy(m.state_dict()),
        "{k: v.detach().clone()}": lambda m: {k: t.detach().clone()
                                             for k, t in m.state_dict().items()},
    }.items():
        m, snap, before = _trained(v, make)
        kept = bool(torch.equal(snap["weight"], before))
        measured[name] = "kept the old weights" if kept else "follows the step"
        ok = ok and kept
        if name == "copy.deepcopy()":  # restoring it brings the old weights back
            m.load_state_dict(snap)
            ok = ok and bool(torch.equal(m.weight.detach(), before))
    return ok, measured


def optimizer_state_follows_step(v):
    torch = v.torch
    torch.manual_seed(0)
    m = torch.nn.Linear(3, 2).to(v.device)
    opt = torch.optim.Adam(m.parameters(), lr=0.1)
    x = torch.ones(4, 3, device=v.device)
    m(x).pow(2).sum().backward()
    opt.step()
    snap = opt.state_dict()  # noqa: TEN402 -- the claim demonstrates the alias
    avg = snap["state"][0]["exp_avg"].clone()
    lr = snap["param_groups"][0]["lr"]
    opt.zero_grad()
    m(x).pow(2).sum().backward()
    opt.step()
    opt.param_groups[0]["lr"] = 0.5
    moved = not bool(torch.equal(snap["state"][0]["exp_avg"], avg))
    fresh_groups = snap["param_groups"][0]["lr"] == lr
    return moved and fresh_groups, {"exp_avg_moved": moved, "param_groups_copied": fresh_groups}


def fresh_optimizer_snapshot_holds_nothing_live(v):
    """``opt.state_dict()`` of an optimizer of ``STATELESS_UNTIL_STEP`` taken before its first
    step: no state tensors, and ``param_groups`` copied: a step and a new learning rate later
    it is what it was."""
    from .snapshot_flow import STATELESS_UNTIL_STEP
    torch = v.torch
    measured = {}
    ok = True
    for name in STATELESS_UNTIL_STEP:
        torch.manual_seed(0)
        p = torch.nn.Parameter(torch.ones(3, 2, device=v.device))
        opt = getattr(torch.optim, name)([p], lr=0.1)
        snap = opt.state_dict()  # noqa: TEN402 -- the claim measures the snapshot
        empty = len(snap["state"]) == 0
        (p * p).sum().backward()
        opt.step()
        opt.param_groups[0]["lr"] = 0.5
        held = empty and len(snap["state"]) == 0 and snap["param_groups"][0]["lr"] == 0.1
        measured[name] = "holds nothing live" if held else "follows the optimizer"
        ok = ok and held
    return ok, measured
