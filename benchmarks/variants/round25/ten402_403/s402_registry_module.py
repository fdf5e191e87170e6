"""Module-level snapshot registry used by an experiment script ("tag" -> weights)."""
import copy
import torch
import torch.nn as nn

SNAPSHOTS = {}
SAFE_SNAPSHOTS = {}


def register(tag, model):
    SNAPSHOTS[tag] = model.state_dict()  # expect: TEN402
    SAFE_SNAPSHOTS[tag] = copy.deepcopy(model.state_dict())  # ok


def distance(a, b):
    return sum((a[k] - b[k]).pow(2).sum().item() for k in a) ** 0.5


torch.manual_seed(0)
model = nn.Sequential(nn.Conv1d(2, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 14, 1))
sig = torch.randn(64, 2, 16)
target = sig[:, 0].mean(1, keepdim=True) - sig[:, 1].std(1, keepdim=True)
opt = torch.optim.RMSprop(model.parameters(), lr=0.01)
register("init", model)
for step in range(30):
    opt.zero_grad()
    nn.functional.smooth_l1_loss(model(sig), target).backward()
    opt.step()
    if step == 9:
        register("warm", model)
register("final", model)
for reg_name, reg in (("registry", SNAPSHOTS), ("safe", SAFE_SNAPSHOTS)):
    print(reg_name, "init->warm", round(distance(reg["init"], reg["warm"]), 5),
          "warm->final", round(distance(reg["warm"], reg["final"]), 5))
