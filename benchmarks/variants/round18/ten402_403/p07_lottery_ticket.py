"""Iterative magnitude pruning with weight rewinding (lottery ticket hypothesis)."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

X = torch.randn(128, 10)
Y = (X[:, :3].sum(1) > 0).long()


def build():
    return nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))


def train(model, masks, steps=30):
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    for _ in range(steps):
        opt.zero_grad()
        F.cross_entropy(model(X), Y).backward()
        opt.step()
        apply_masks(model, masks)
    with torch.no_grad():
        return (model(X).argmax(1) == Y).float().mean().item()


@torch.no_grad()
def apply_masks(model, masks):
    for name, p in model.named_parameters():
        if name in masks:
            p.mul_(masks[name])


def prune(model, masks, rate=0.3):
    new = {}
    for name, p in model.named_parameters():
        if p.dim() < 2:
            continue
        alive = p.detach()[masks[name].bool()].abs()
        thr = alive.kthvalue(max(1, int(rate * alive.numel()))).values
        new[name] = masks[name] * (p.detach().abs() > thr).float()
    return new


def rewind(model, state, masks):
    model.load_state_dict(state)
    apply_masks(model, masks)


def lottery(rounds=3, deep=False):
    torch.manual_seed(0)
    model = build()
    if deep:
        init_state = copy.deepcopy(model.state_dict())  # ok
    else:
        init_state = model.state_dict()  # expect: TEN402
    masks = {n: torch.ones_like(p) for n, p in model.named_parameters() if p.dim() > 1}  # ok
    accs = []
    for _ in range(rounds):
        accs.append(round(train(model, masks), 3))
        masks = prune(model, masks)
        rewind(model, init_state, masks)
    first_layer = model[0].weight.detach()  # ok
    return accs, first_layer.abs().mean().item()


if __name__ == "__main__":
    print("rewind to alias :", lottery(deep=False))
    print("rewind to copy  :", lottery(deep=True))
