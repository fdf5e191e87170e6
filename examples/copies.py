"""Copies made the wrong way (TEN201-TEN204, TEN301, TEN302)."""
import torch


def snapshot(t: torch.Tensor, ref: torch.Tensor):
    a = torch.tensor(t)
    b = torch.tensor(t, dtype=torch.float64, requires_grad=True)
    c = ref.new_tensor(t)
    d = t.clone().detach()
    e = torch.empty_like(t).copy_(t)
    f = torch.Tensor(t)
    return a, b, c, d, e, f


def collect(x: torch.Tensor, y: torch.Tensor):
    return torch.tensor([x.sum(), y.sum()])
