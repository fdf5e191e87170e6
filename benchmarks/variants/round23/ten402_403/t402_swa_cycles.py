"""Stochastic weight averaging over the end of each cyclic-LR cycle."""
import copy

import torch
from torch import nn


def build():
    return nn.Sequential(nn.Linear(8, 8), nn.GELU(), nn.Linear(8, 1))


def cycle(model, opt, x, y, steps=3):
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()


def average(snapshots):
    keys = snapshots[0].keys()
    return {k: torch.stack([s[k].float() for s in snapshots]).mean(0) for k in keys}


def swa(keep_copy):
    torch.manual_seed(0)
    model = build()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(50, 8), torch.randn(50, 1)
    snapshots = []
    for c in range(4):
        cycle(model, opt, x, y)
        if keep_copy:
            snapshots.append(copy.deepcopy(model.state_dict()))  # ok
        else:
            snapshots.append(model.state_dict())  # expect: TEN402
    swa_model = build()
    swa_model.load_state_dict(average(snapshots))
    with torch.no_grad():
        return nn.functional.mse_loss(swa_model(x), y).item()


torch.manual_seed(0)
print("swa loss (live refs): %.6f" % swa(False))
print("swa loss (deep copies): %.6f" % swa(True))
