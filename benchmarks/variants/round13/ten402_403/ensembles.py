"""Cheap ensembles: a uniform model soup and a cyclic-LR snapshot ensemble (CPU)."""
import copy
import math

import torch
from torch import nn
import torch.nn.functional as F

DEVICE = torch.device("cpu")


def toy_problem(seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(200, 6, generator=g)
    y = ((x[:, 0] * x[:, 1] + x[:, 2]) > 0).long()
    return x.to(DEVICE), y.to(DEVICE)


def build():
    return nn.Sequential(nn.Linear(6, 32), nn.GELU(), nn.Linear(32, 2)).to(DEVICE)


def finetune(model, data, lr, steps=25):
    x, y = data
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()


def uniform_soup(lrs=(1e-3, 3e-3, 1e-2), seed=0):
    torch.manual_seed(seed)
    data = toy_problem(seed)
    model = build()
    finetune(model, data, 1e-2, steps=10)
    pretrained = copy.deepcopy(model.state_dict())  # ok
    ingredients = []
    for lr in lrs:
        model.load_state_dict(pretrained)
        finetune(model, data, lr)
        ingredients.append(dict(model.state_dict()))  # expect: TEN402
    soup = {k: torch.stack([sd[k].float() for sd in ingredients]).mean(0) for k in pretrained}
    model.load_state_dict(soup)
    return model, ingredients, pretrained


def snapshot_ensemble(cycles=3, steps_per_cycle=20, lr_max=0.1, seed=1):
    torch.manual_seed(seed)
    x, y = toy_problem(seed)
    model = build()
    opt = torch.optim.SGD(model.parameters(), lr=lr_max, momentum=0.9)
    snapshots = []
    for c in range(cycles):
        for t in range(steps_per_cycle):
            for g in opt.param_groups:
                g["lr"] = 0.5 * lr_max * (1 + math.cos(math.pi * t / steps_per_cycle))
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()
        snapshots.append({k: v.to(DEVICE) for k, v in model.state_dict().items()})  # expect: TEN402
    return model, snapshots


@torch.no_grad()
def ensemble_predict(model, snapshots, x):
    probs = []
    for sd in snapshots:
        model.load_state_dict(sd)
        probs.append(model(x).softmax(-1))
    return torch.stack(probs).mean(0)


if __name__ == "__main__":
    soup_model, ingredients, _ = uniform_soup()
    x, y = toy_problem(0)
    with torch.no_grad():
        print("soup acc", (soup_model(x).argmax(1) == y).float().mean().item())
    model, snaps = snapshot_ensemble()
    x, y = toy_problem(1)
    print("snapshot ensemble acc", (ensemble_predict(model, snaps, x).argmax(1) == y).float().mean().item())
