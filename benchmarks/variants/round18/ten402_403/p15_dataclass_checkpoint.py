"""Training loop that tracks the best epoch in a dataclass."""
import copy
import dataclasses
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


@dataclass
class Checkpoint:
    epoch: int
    metric: float
    state: dict = field(default_factory=dict)
    optimizer: dict = field(default_factory=dict)


@dataclass
class History:
    records: list = field(default_factory=list)
    best: Checkpoint = None


def make_split(n=24, dim=20):
    w = torch.randn(dim, 1)
    x, xv = torch.randn(n, dim), torch.randn(80, dim)
    return (x, x @ w + torch.randn(n, 1)), (xv, xv @ w + torch.randn(80, 1))


def train(tracked_copy):
    torch.manual_seed(0)
    (x, y), (xv, yv) = make_split()
    model = nn.Sequential(nn.Linear(20, 40), nn.ReLU(), nn.Linear(40, 1))
    opt = torch.optim.Adam(model.parameters(), lr=0.03)
    hist = History()
    best = Checkpoint(epoch=-1, metric=float("inf"))
    for epoch in range(25):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
        with torch.no_grad():
            val = F.mse_loss(model(xv), yv).item()
        if val < best.metric:
            if tracked_copy:
                best = Checkpoint(epoch=epoch, metric=val, state=copy.deepcopy(model.state_dict()))  # ok
            else:
                best = Checkpoint(epoch=epoch, metric=val, state=model.state_dict())  # expect: TEN402
        hist.records.append(dataclasses.replace(best, metric=val))  # either
    hist.best = best
    model.load_state_dict(hist.best.state)
    with torch.no_grad():
        restored = F.mse_loss(model(xv), yv).item()
    return best.epoch, round(best.metric, 4), round(restored, 4)


if __name__ == "__main__":
    print("state kept live  :", train(False))
    print("state deep-copied:", train(True))
