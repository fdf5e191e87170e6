"""Iterative magnitude pruning with rewinding to initialization (LTH)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LeNet300(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 300)
        self.fc2 = nn.Linear(300, 100)
        self.fc3 = nn.Linear(100, 10)

    def forward(self, x):
        x = x.view(x.size(0), -1)
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


def apply_masks(model, masks):
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name in masks:
                p.mul_(masks[name])


def train_one_round(model, masks, loader, epochs, device):
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    model.train()
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()
            apply_masks(model, masks)


def prune_by_magnitude(model, masks, rate):
    new_masks = {}
    for name, p in model.named_parameters():
        if name not in masks:
            continue
        alive = p.detach()[masks[name].bool()].abs()
        k = int(rate * alive.numel())
        if k == 0:
            new_masks[name] = masks[name]
            continue
        thresh = alive.kthvalue(k).values
        new_masks[name] = (p.detach().abs() > thresh).float() * masks[name]
    return new_masks


def lottery_ticket(loader, rounds=5, rate=0.2, epochs=3, device="cuda"):
    model = LeNet300().to(device)
    init_weights = {n: p.detach() for n, p in model.named_parameters()}  # expect: TEN402
    masks = {n: torch.ones_like(p) for n, p in model.named_parameters() if n.endswith("weight")}

    for r in range(rounds):
        train_one_round(model, masks, loader, epochs, device)
        masks = prune_by_magnitude(model, masks, rate)
        sparsity = 1 - sum(m.sum().item() for m in masks.values()) / sum(m.numel() for m in masks.values())
        print(f"round {r}: sparsity {sparsity:.3f}")

        # rewind surviving weights to their values at initialization
        with torch.no_grad():
            for name, p in model.named_parameters():
                p.copy_(init_weights[name])
        apply_masks(model, masks)

    return model, masks
