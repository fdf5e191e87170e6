"""Shift-by-one written several ways; only some write a tensor onto itself."""
import torch

torch.manual_seed(0)
base = torch.randn(3, 7)
reference = torch.zeros_like(base)
reference[:, 1:] = base[:, :-1]  # ok


def shift_rebound(x):
    src = x
    x = torch.zeros_like(src)  # x is a new tensor now
    x[:, 1:] = src[:, :-1]  # ok
    return x


def shift_alias(x):
    src = x  # just another name for the same tensor
    x[:, 1:] = src[:, :-1]  # expect: TEN403
    x[:, 0] = 0
    return x


def shift_scaled(x):
    x[:, 1:] = x[:, :-1] * 1.0  # ok
    x[:, 0] = 0
    return x


def shift_where(x):
    y = x.clone()
    x[:, 1:] = y[:, :-1]  # ok
    x[:, 0] = 0
    return x


for fn in (shift_rebound, shift_alias, shift_scaled, shift_where):
    out = fn(base.clone())
    print("%-14s equal to reference: %s  sum %.6f" % (fn.__name__, torch.equal(out, reference), out.sum().item()))
