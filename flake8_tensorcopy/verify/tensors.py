"""The tensor kinds every fix and claim is tried on."""
from __future__ import annotations

KINDS = ("leaf", "nonleaf", "plain", "transposed", "parameter", "float64", "int64", "zero_dim",
         "channels_last")


def make(torch, kind: str, device: str, seed: int = 0):
    """(t, leaf): ``t`` of the given kind and the leaf whose ``.grad`` receives its gradients."""
    g = torch.Generator(device="cpu").manual_seed(seed)

    def randn(*shape, dtype=None):
        return torch.randn(*shape, generator=g, dtype=dtype or torch.float32).to(device)

    if kind == "leaf":
        t = randn(4, 3).requires_grad_(True)
        return t, t
    if kind == "nonleaf":
        leaf = randn(4, 3).requires_grad_(True)
        return leaf * 2, leaf
    if kind == "plain":
        return randn(4, 3), None
    if kind == "transposed":
        leaf = randn(3, 4).requires_grad_(True)
        return leaf.t(), leaf
    if kind == "parameter":
        p = torch.nn.Parameter(randn(4, 3))
        return p, p
    if kind == "float64":
        t = randn(4, 3, dtype=torch.float64).requires_grad_(True)
        return t, t
    if kind == "int64":
        return torch.arange(12, device=device).reshape(4, 3), None
    if kind == "zero_dim":
        t = randn(()).requires_grad_(True)
        return t, t
    if kind == "channels_last":
        leaf = randn(2, 3, 4, 5).contiguous(memory_format=torch.channels_last).requires_grad_(True)
        return leaf, leaf
    raise ValueError(f"unknown tensor kind {kind!r}")


def receiver(torch, device: str):
    """The ``x`` of ``x.new_tensor(t)``: float64, so a dtype change shows."""
    return torch.zeros(2, dtype=torch.float64, device=device)
