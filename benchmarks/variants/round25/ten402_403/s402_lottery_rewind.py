"""Lottery-ticket iterative magnitude pruning with weight rewinding."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(12, 48), nn.ReLU(), nn.Linear(48, 3))
x = torch.randn(150, 12)
y = (x[:, 0] * 2 + x[:, 1] - x[:, 2]).clamp(-1, 1).round().long() + 1
init_weights = {n: p for n, p in net.named_parameters()}  # expect: TEN402
masks = {n: torch.ones_like(p) for n, p in net.named_parameters() if p.dim() == 2}


def train(steps=40, rewind_store=None):
    opt = torch.optim.SGD(net.parameters(), lr=0.3)
    for s in range(steps):
        opt.zero_grad()
        F.cross_entropy(net(x), y).backward()
        opt.step()
        with torch.no_grad():
            for n, p in net.named_parameters():
                if n in masks:
                    p.mul_(masks[n])
        if rewind_store is not None and s == 2:
            rewind_store.update({n: p.detach().clone() for n, p in net.named_parameters()})  # ok


late = {}
for rnd in range(3):
    train(rewind_store=late if rnd == 0 else None)
    with torch.no_grad():
        acc = (net(x).argmax(1) == y).float().mean().item()
        for n, p in net.named_parameters():
            if n in masks:
                alive = p[masks[n].bool()].abs()
                thr = alive.kthvalue(max(1, int(0.3 * alive.numel()))).values
                masks[n] = masks[n] * (p.abs() > thr).float()
        for n, p in net.named_parameters():
            p.copy_(init_weights[n] * masks.get(n, 1.0))
    print(f"round {rnd} acc {acc:.4f} density {masks['0.weight'].mean().item():.3f}")

with torch.no_grad():
    for n, p in net.named_parameters():
        p.copy_(late[n] * masks.get(n, 1.0))
train()
print("late-rewind ticket acc", round((net(x).argmax(1) == y).float().mean().item(), 4))
