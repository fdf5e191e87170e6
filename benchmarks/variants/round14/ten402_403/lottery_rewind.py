"""Iterative magnitude pruning with late rewinding (lottery ticket style)."""
import copy

import torch
from torch import nn


def masked_step(model, masks, opt, x, y):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name in masks:
                p.mul_(masks[name])
    return loss.item()


def prune_masks(model, masks, frac=0.3):
    new = {}
    for name, p in model.named_parameters():
        if not name.endswith("weight"):
            continue
        alive = p.detach().abs()[masks[name].bool()]
        thresh = alive.kthvalue(max(1, int(frac * alive.numel()))).values
        new[name] = masks[name] * (p.detach().abs() > thresh).float()
    return new


def imp(rewind_iter=3, rounds=3, iters=12, snapshot="live"):
    torch.manual_seed(0)
    x, y = torch.randn(128, 12), torch.randint(0, 3, (128,))
    model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 3))
    init_state = copy.deepcopy(model.state_dict())  # ok
    masks = {n: torch.ones_like(p) for n, p in model.named_parameters() if n.endswith("weight")}  # ok
    rewind_state = None
    for r in range(rounds):
        opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
        for it in range(iters):
            loss = masked_step(model, masks, opt, x, y)
            if r == 0 and it == rewind_iter:
                if snapshot == "live":
                    rewind_state = model.state_dict()  # expect: TEN402
                else:
                    rewind_state = {k: v.clone() for k, v in model.state_dict().items()}  # ok
        masks = prune_masks(model, masks)
        model.load_state_dict(rewind_state)
        with torch.no_grad():
            for name, p in model.named_parameters():
                if name in masks:
                    p.mul_(masks[name])
        density = sum(m.sum().item() for m in masks.values()) / sum(m.numel() for m in masks.values())
        print(f"[{snapshot}] round {r}: loss {loss:.4f} density {density:.2f}")
    dist = sum((model.state_dict()[k] - init_state[k]).norm().item() for k in init_state)
    print(f"[{snapshot}] distance from init after final rewind: {dist:.3f}")


if __name__ == "__main__":
    imp(snapshot="live")
    imp(snapshot="cloned")
