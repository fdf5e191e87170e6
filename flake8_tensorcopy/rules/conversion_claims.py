"""The claims behind TEN404-TEN406 (run by ``tensorcopy verify``; torch arrives through the
helper ``v``, so importing the rules never imports torch). Device-dependent facts are separate
claims, each declared for the devices it is about."""
from __future__ import annotations

from .base import Claim


# ---- TEN404: conversions that return their receiver ---------------------------------------------
def _no_op_conversions_return_self_on_cpu(v):
    """On a contiguous float32 CPU tensor every one of these is the tensor itself."""
    torch = v.torch
    same = {}
    for label, make in (
            ("cpu()", lambda t: t.cpu()),
            ("to('cpu')", lambda t: t.to("cpu")),
            ("to(float32)", lambda t: t.to(torch.float32)),
            ("float()", lambda t: t.float()),
            ("type(float32)", lambda t: t.type(torch.float32)),
            ("contiguous()", lambda t: t.contiguous()),
            ("as_tensor(t)", lambda t: torch.as_tensor(t)),
            ("requires_grad_(False)", lambda t: t.requires_grad_(False))):
        t = torch.zeros(2, 3)
        same[label] = make(t) is t
    return all(same.values()), same


def _conversions_copy_when_something_converts(v):
    """``double()`` of float32, ``T.contiguous()``, ``to(device, copy=True)`` and
    ``as_tensor(t, dtype=float64)`` share no memory with ``t``, on any device."""
    torch = v.torch
    t = torch.zeros(2, 3, device=v.device)
    shared = {}
    for label, r in (("double()", t.double()), ("T.contiguous()", t.T.contiguous()),
                     ("to(device, copy=True)", t.to(v.device, copy=True)),
                     ("as_tensor(t, dtype=float64)", torch.as_tensor(t, dtype=torch.float64))):
        r.add_(1)
        shared[label] = bool(t.sum() != 0)
    return not any(shared.values()), {"source_changed": shared}


def _write_through_conversion_reaches_source(v):
    """On its own device and dtype, a write through ``t.float()`` or ``t.to(device)`` is a write
    into ``t``; through ``.clone()`` it is not."""
    torch = v.torch
    t = torch.zeros(3, device=v.device)
    x = t.float()  # noqa: TEN404 -- the claim demonstrates the alias
    x.mul_(2).add_(1)
    after_float = t.tolist()
    y = t.to(v.device)  # noqa: TEN404 -- the claim demonstrates the alias
    y.add_(1)
    after_to = t.tolist()
    z = t.float().clone()
    z.add_(5)
    return after_float == [1.0] * 3 and after_to == [2.0] * 3 and t.tolist() == [2.0] * 3, {
        "after_float_write": after_float, "after_to_write": after_to, "after_clone_write": t.tolist()}


def _cpu_copies_from_cuda(v):
    """``.cpu()`` of a CUDA tensor is a new CPU tensor: a later write to the source leaves it."""
    torch = v.torch
    w = torch.zeros(3, device=v.device)
    prev = w.cpu()
    w.add_(1)
    return prev is not w and prev.tolist() == [0.0] * 3, {"prev": prev.tolist(),
                                                          "device": str(prev.device)}


TEN404 = (
    Claim("no-op-conversions-return-self-on-cpu", "semantics",
          "on a contiguous float32 CPU tensor, `cpu()`, `to('cpu')`, `to(float32)`, `float()`, "
          "`type(float32)`, `contiguous()`, `torch.as_tensor(t)` and `requires_grad_(False)` "
          "return the tensor itself", _no_op_conversions_return_self_on_cpu, devices=("cpu",)),
    Claim("cpu-copies-from-cuda", "semantics",
          "`w.cpu()` of a CUDA tensor is a copy: a later `w.add_(1)` leaves it unchanged",
          _cpu_copies_from_cuda, devices=("cuda",)),
    Claim("conversions-copy-when-something-converts", "semantics",
          "`double()` of float32, `T.contiguous()`, `to(device, copy=True)` and "
          "`as_tensor(t, dtype=float64)` share no memory with `t`",
          _conversions_copy_when_something_converts),
    Claim("write-through-conversion-reaches-source", "semantics",
          "on the tensor's own device and dtype, an in-place write through `t.float()` or "
          "`t.to(device)` changes `t`; through `.clone()` it does not",
          _write_through_conversion_reaches_source),
)


# ---- TEN405: the NumPy bridge --------------------------------------------------------------------
def _bridge_shares_memory(v):
    """``from_numpy(a)`` and same-dtype ``as_tensor(a)`` write into ``a``; ``t.numpy()`` and
    ``np.asarray(t)`` follow writes into ``t``."""
    import numpy as np
    torch = v.torch
    seen = {}
    a = np.zeros(3, dtype=np.float32)
    x = torch.from_numpy(a)  # noqa: TEN405 -- the claim demonstrates the bridge
    x += 1
    seen["from_numpy"] = a.tolist()
    b = np.zeros(3, dtype=np.float32)
    y = torch.as_tensor(b)  # noqa: TEN405 -- the claim demonstrates the bridge
    y.mul_(2).add_(3)
    seen["as_tensor"] = b.tolist()
    t = torch.zeros(3)
    n = t.numpy()  # noqa: TEN405 -- the claim demonstrates the bridge
    m = np.asarray(t)  # noqa: TEN405 -- the claim demonstrates the bridge
    t += 5
    seen["numpy"], seen["asarray"] = n.tolist(), m.tolist()
    holds = seen == {"from_numpy": [1.0] * 3, "as_tensor": [3.0] * 3, "numpy": [5.0] * 3,
                     "asarray": [5.0] * 3}
    return holds, seen


def _bridge_copies(v):
    """``torch.tensor(a)``, ``as_tensor(a, dtype=float64)`` of float32, ``from_numpy(a.copy())``
    and ``t.numpy().copy()`` are independent of their source."""
    import numpy as np
    torch = v.torch
    a = np.zeros(3, dtype=np.float32)
    for r in (torch.tensor(a), torch.as_tensor(a, dtype=torch.float64),
              torch.from_numpy(a.copy())):
        r.add_(1)
    t = torch.zeros(3)
    n = t.numpy().copy()
    t += 1
    return a.tolist() == [0.0] * 3 and n.tolist() == [0.0] * 3, {"array_after": a.tolist(),
                                                                 "copy_after": n.tolist()}


TEN405 = (
    Claim("bridge-shares-memory", "semantics",
          "`torch.from_numpy(a)` and same-dtype `torch.as_tensor(a)` write into `a` on an "
          "in-place op; `t.numpy()` and `np.asarray(t)` follow `t += 5`",
          _bridge_shares_memory, devices=("cpu",)),
    Claim("bridge-copies", "semantics",
          "`torch.tensor(a)`, `as_tensor(a, dtype=float64)`, `from_numpy(a.copy())` and "
          "`t.numpy().copy()` are independent of their source", _bridge_copies,
          devices=("cpu",)),
)


# ---- TEN406: expanded and repeated tensors -------------------------------------------------------
def _repeated_list_is_one_tensor(v):
    """``[torch.zeros(2)] * 3`` is one tensor three times; a comprehension makes three."""
    torch = v.torch
    rep = [torch.zeros(2, device=v.device)] * 3
    rep[0].add_(1)  # noqa: TEN406 -- the claim demonstrates the repetition
    own = [torch.zeros(2, device=v.device) for _ in range(3)]
    own[0].add_(1)
    got = {"repeated": [r.tolist() for r in rep], "comprehension": [r.tolist() for r in own]}
    holds = got["repeated"] == [[1.0, 1.0]] * 3 and got["comprehension"][1:] == [[0.0, 0.0]] * 2
    return holds, got


def _expand_row_write_is_silent(v):
    """``e[0] = row`` into ``zeros(1, 3).expand(2, 3)`` writes the base (every row) without an
    error, while ``e.add_(1)`` raises."""
    torch = v.torch
    base = torch.zeros(1, 3, device=v.device)
    e = base.expand(2, 3)
    e[0] = torch.tensor([1.0, 2.0, 3.0], device=v.device)
    rows = e.tolist()
    try:
        e.add_(1)
        raised = "no error"
    except RuntimeError as exc:
        raised = str(exc).split("\n")[0]
    holds = rows == [[1.0, 2.0, 3.0]] * 2 and base.tolist() == [[1.0, 2.0, 3.0]] and \
        "single memory location" in raised
    raised = raised[:90]
    return holds, {"row_values": rows, "add_": raised}


TEN406 = (
    Claim("repeated-list-is-one-tensor", "semantics",
          "`[torch.zeros(2)] * 3` is one tensor: `l[0].add_(1)` changes all three; "
          "`[torch.zeros(2) for _ in range(3)]` does not", _repeated_list_is_one_tensor),
    Claim("expand-row-write-is-silent", "semantics",
          "`e[0] = row` into `zeros(1, 3).expand(2, 3)` silently writes the base (every row); "
          "`e.add_(1)` raises 'more than one element ... single memory location'",
          _expand_row_write_is_silent),
)
