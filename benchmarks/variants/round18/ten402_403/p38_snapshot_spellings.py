"""Keeping a per-parameter 'initial value' for a weight-decay-to-init regularizer.

Different contributors wrote the snapshot in different ways; conversions that are
no-ops for float32 CPU tensors return the very same tensor.
"""
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector

torch.manual_seed(0)
torch.set_num_threads(1)


class DecayToInit:
    def __init__(self, model, how, strength=0.1):
        self.strength = strength
        params = [p.detach() for p in model.parameters()]
        if how == "contiguous":
            self.init = [p.contiguous() for p in params]  # expect: TEN402
        elif how == "float":
            self.init = [p.float() for p in params]  # expect: TEN402
        elif how == "view":
            self.init = [p.view(-1) for p in params]  # expect: TEN402
        elif how == "to-dtype":
            self.init = [p.to(dtype=p.dtype) for p in params]  # expect: TEN402
        elif how == "double":
            self.init = [p.double().float() for p in params]  # ok
        elif how == "times-one":
            self.init = [p * 1.0 for p in params]  # ok
        elif how == "map-clone":
            self.init = list(map(torch.clone, params))  # ok
        else:
            self.init = [torch.empty_like(p).copy_(p) for p in params]  # ok

    def __call__(self, model):
        return self.strength * sum(((p - p0.view_as(p)) ** 2).sum() for p, p0 in zip(model.parameters(), self.init))


def run(how, steps=12):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1))
    decay_to_init = DecayToInit(model, how)
    flat0 = parameters_to_vector(model.parameters()).detach()  # ok
    stacked0 = torch.stack([p.detach().sum() for p in model.parameters()])  # ok
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    x, y = torch.randn(32, 5), torch.randn(32, 1)
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y) + decay_to_init(model)
        loss.backward()
        opt.step()
    moved = (parameters_to_vector(model.parameters()).detach() - flat0).norm().item()
    sums = torch.stack([p.detach().sum() for p in model.parameters()]) - stacked0
    return round(decay_to_init(model).item(), 5), round(moved, 4), round(sums.abs().sum().item(), 4)


if __name__ == "__main__":
    for how in ("contiguous", "float", "view", "to-dtype", "double", "times-one", "map-clone", "empty-like"):
        print(f"{how:10s}", run(how))
