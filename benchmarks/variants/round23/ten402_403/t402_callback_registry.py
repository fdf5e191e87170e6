"""Callbacks that stash model snapshots as attributes and in a global registry."""
import copy

import torch
import torch.nn as nn


class SnapshotRegistry:
    def __init__(self):
        self._items = {}

    def register(self, name, state):
        self._items[name] = state

    def get(self, name):
        return self._items[name]


REGISTRY = SnapshotRegistry()


class EpochSnapshotCallback:
    def on_epoch_end(self, epoch, model):
        if epoch == 0:
            setattr(self, "snap_first", model.state_dict())  # expect: TEN402
        if epoch == 0:
            setattr(self, "snap_first_copy", copy.deepcopy(model.state_dict()))  # ok
        if epoch == 1:
            REGISTRY.register("warmup_end", model.state_dict())  # expect: TEN402
        setattr(self, "last_epoch", epoch)  # ok


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.2)
cb = EpochSnapshotCallback()
x, y = torch.randn(16, 3), torch.randn(16, 1)
for epoch in range(4):
    opt.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()
    cb.on_epoch_end(epoch, model)

cur = model.state_dict()


def dist(a, b):
    return sum((a[k] - b[k]).abs().sum().item() for k in a)


print("first vs final: %.6f" % dist(cb.snap_first, cur))
print("first(copy) vs final: %.6f" % dist(cb.snap_first_copy, cur))
print("warmup_end vs final: %.6f" % dist(REGISTRY.get("warmup_end"), cur))
print("last epoch:", cb.last_epoch)
