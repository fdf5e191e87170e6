"""`detach()` is not a copy (TEN401)."""
import torch


def normalized(x: torch.Tensor):
    y = x.detach()
    y -= y.mean()
    return y
