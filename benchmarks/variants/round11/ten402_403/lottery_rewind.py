"""Iterative magnitude pruning with weight rewinding (lottery ticket style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp():
    return nn.Sequential(nn.Flatten(), nn.Linear(784, 300), nn.ReLU(), nn.Linear(300, 100), nn.ReLU(), nn.Linear(100, 10))


def train_some(model, masks, steps=200):
    opt = torch.optim.Adam(model.parameters(), lr=1.2e-3)
    for _ in range(steps):
        x = torch.rand(64, 1, 28, 28)
        y = torch.randint(0, 10, (64,))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            for name, p in model.named_parameters():
                if name in masks:
                    p.mul_(masks[name])


def prune_masks(model, masks, rate):
    new_masks = {}
    for name, p in model.named_parameters():
        if p.dim() < 2:
            continue
        alive = p.detach().abs()[masks[name].bool()]
        k = int(rate * alive.numel())
        threshold = alive.kthvalue(max(k, 1)).values
        new_masks[name] = masks[name] * (p.detach().abs() > threshold).float()
    return new_masks


def find_ticket(rounds=5, rate=0.2):
    torch.manual_seed(0)
    model = mlp()
    init_weights = {k: v for k, v in model.state_dict().items()}  # expect: TEN402
    masks = {n: torch.ones_like(p) for n, p in model.named_parameters() if p.dim() >= 2}

    for r in range(rounds):
        train_some(model, masks)
        masks = prune_masks(model, masks, rate)
        # rewind surviving weights to their values at initialisation
        model.load_state_dict(init_weights)
        with torch.no_grad():
            for name, p in model.named_parameters():
                if name in masks:
                    p.mul_(masks[name])
        density = sum(m.sum().item() for m in masks.values()) / sum(m.numel() for m in masks.values())
        print(f"round {r}: density {density:.3f}")
    return model, masks


if __name__ == "__main__":
    find_ticket()
