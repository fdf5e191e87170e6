"""Iterative magnitude pruning with weight rewinding (lottery ticket hypothesis)."""
import collections
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X, Y = torch.randn(160, 10), torch.randint(0, 3, (160,))


def make():
    torch.manual_seed(2)
    return nn.Sequential(nn.Linear(10, 40), nn.ReLU(), nn.Linear(40, 3))


def train(model, masks, steps=20):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        F.cross_entropy(model(X), Y).backward()
        opt.step()
        with torch.no_grad():
            for name, p in model.named_parameters():
                if name in masks:
                    p.mul_(masks[name])


def prune(model, masks, frac=0.3):
    new = {}
    for name, p in model.named_parameters():
        if name.endswith("weight"):
            alive = p.detach().abs()[masks[name].bool()]
            thr = alive.kthvalue(max(1, int(frac * alive.numel()))).values
            new[name] = masks[name] * (p.detach().abs() > thr).float()  # ok
    return new


def imp(rounds=3, rewind=True, fixed=False):
    model = make()
    masks = {n: torch.ones_like(p) for n, p in model.named_parameters() if n.endswith("weight")}  # ok
    if fixed:
        rewind_state = copy.deepcopy(model.state_dict())  # ok
    else:
        rewind_state = collections.OrderedDict(model.state_dict())  # expect: TEN402
    for _ in range(rounds):
        train(model, masks)
        masks = prune(model, masks)
        if rewind:
            model.load_state_dict(rewind_state)
    train(model, masks)
    with torch.no_grad():
        acc = (model(X).argmax(1) == Y).float().mean().item()
    density = sum(m.sum().item() for m in masks.values()) / sum(m.numel() for m in masks.values())
    return round(acc, 3), round(density, 3)


if __name__ == "__main__":
    print("rewind to live state:", imp())
    print("rewind to copied init:", imp(fixed=True))
