"""Iterative magnitude pruning with weight rewinding (lottery ticket)."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)


def train(model, masks, x, y, steps=25):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            for name, p in model.named_parameters():
                if name in masks:
                    p.mul_(masks[name])


def prune(model, masks, frac=0.3):
    new = {}
    for name, p in model.named_parameters():
        if p.dim() < 2:
            continue
        m = masks.get(name, torch.ones_like(p))
        alive = p.detach().abs()[m.bool()]
        thr = alive.kthvalue(max(1, int(frac * alive.numel()))).values
        new[name] = (p.detach().abs() > thr).float() * m
    return new


def lottery(rewind_fn, x, y, rounds=3):
    torch.manual_seed(5)
    model = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 3))
    init_state = rewind_fn(model)  # either: TEN402
    masks = {}
    for _ in range(rounds):
        train(model, masks, x, y)
        masks = prune(model, masks)
        model.load_state_dict(init_state)
        with torch.no_grad():
            for name, p in model.named_parameters():
                if name in masks:
                    p.mul_(masks[name])
    train(model, masks, x, y)
    with torch.no_grad():
        return nn.functional.cross_entropy(model(x), y).item(), model[0].weight.abs().sum().item()


def rewind_shallow(model):
    return copy.copy(model.state_dict())  # expect: TEN402


def rewind_cloned(model):
    return {k: v.clone() for k, v in model.state_dict().items()}  # ok


if __name__ == "__main__":
    x = torch.randn(60, 10)
    y = torch.randint(0, 3, (60,))
    for fn in (rewind_shallow, rewind_cloned):
        loss, l1 = lottery(fn, x, y)
        print(f"{fn.__name__}: loss {loss:.6f} l1 {l1:.6f}")
