"""Copies that are sometimes not copies (TEN404-TEN406): conversions that return the same
tensor when nothing needs converting, the NumPy bridge, repeated and expanded tensors."""
import numpy as np
import torch
import torch.distributed as dist


def weight_change(w: torch.Tensor, grad: torch.Tensor, lr: float):
    prev = w.detach().cpu()  # the same tensor when w is already on the CPU
    w.sub_(grad, alpha=lr)
    return (w - prev).norm()


def to_unit_range(batch: torch.Tensor):
    x = batch.float()  # the loader's own tensor when it is already float32
    x.div_(255)
    return x, batch.mean()


def clipped(a: np.ndarray):
    t = torch.from_numpy(a)  # shares memory with the caller's array
    t.clamp_(0, 1)
    return t, a.std()


def gather(x: torch.Tensor):
    gathered = [torch.zeros_like(x)] * dist.get_world_size()  # one tensor, n times
    dist.all_gather(gathered, x)
    return torch.stack(gathered)


def rows(row: torch.Tensor, n: int):
    e = row.unsqueeze(0).expand(n, -1)  # every row is the same memory
    e[0] = row * 2
    return e
