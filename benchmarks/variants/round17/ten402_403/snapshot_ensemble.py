"""Snapshot ensembling: cyclic learning rate, keep a member at the end of each cycle."""
import copy
import math

import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


def data():
    g = torch.Generator().manual_seed(4)
    x = torch.randn(160, 2, generator=g)
    y = ((x[:, 0] ** 2 + x[:, 1] ** 2) < 1.2).long()
    return x, y


def cycles(n_cycles=3, cycle_len=15, how="module-copy"):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.3)
    x, y = data()
    members, member_states = [], []
    for c in range(n_cycles):
        for i in range(cycle_len):
            for g in opt.param_groups:
                g["lr"] = 0.15 * (1 + math.cos(math.pi * i / cycle_len))
            opt.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
        if how == "module-copy":
            members.append(copy.deepcopy(model))  # ok
            member_states.append({k: v.clone() for k, v in model.state_dict().items()})  # ok
        else:
            members.append(model)  # either
            member_states.append(model.state_dict())  # expect: TEN402
    with torch.no_grad():
        probs = torch.stack([m(x).softmax(1) for m in members]).mean(0)
        ens_acc = (probs.argmax(1) == y).float().mean().item()
        distinct = len({round(s["0.weight"].sum().item(), 6) for s in member_states})
    return ens_acc, distinct


if __name__ == "__main__":
    for how in ("module-copy", "alias"):
        print(how, cycles(how=how))
