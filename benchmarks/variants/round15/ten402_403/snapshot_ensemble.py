"""Snapshot ensembles (Huang et al.): save a copy at the end of every cosine cycle."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X, Y = torch.randn(150, 6), torch.randint(0, 3, (150,))


def cyclic_lr(step, steps_per_cycle, lr0=0.1):
    return lr0 / 2 * (math.cos(math.pi * (step % steps_per_cycle) / steps_per_cycle) + 1)


def train_snapshots(cycles=3, steps_per_cycle=10):
    model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    snapshots, cpu_snapshots, param_snaps = [], [], []
    for step in range(cycles * steps_per_cycle):
        for g in opt.param_groups:
            g["lr"] = cyclic_lr(step, steps_per_cycle)
        opt.zero_grad()
        F.cross_entropy(model(X), Y).backward()
        opt.step()
        if (step + 1) % steps_per_cycle == 0:
            snapshots.append(copy.deepcopy(model.state_dict()))  # ok
            cpu_snapshots.append({k: v.to("cpu", copy=True) for k, v in model.state_dict().items()})  # ok
            param_snaps.append([p.detach().clone() for p in model.parameters()])  # ok
    final_sd = model.state_dict()  # ok
    return model, snapshots, cpu_snapshots, param_snaps, final_sd


def ensemble_predict(model, snapshots, x):
    probs = []
    for sd in snapshots:
        model.load_state_dict(sd)
        with torch.no_grad():
            probs.append(F.softmax(model(x), 1))
    return torch.stack(probs).mean(0)


if __name__ == "__main__":
    model, snaps, cpu_snaps, param_snaps, final_sd = train_snapshots()
    last_copy = copy.deepcopy(final_sd)  # ok
    p = ensemble_predict(model, snaps, X)
    print("snapshots distinct:", not torch.equal(snaps[0]["0.weight"], snaps[-1]["0.weight"]))
    print("ensemble acc", (p.argmax(1) == Y).float().mean().item(), len(cpu_snaps), len(param_snaps))
    model.load_state_dict(last_copy)
