"""Snapshot ensembling: collect weights at the end of each cosine cycle."""
import math

import torch
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)

x = torch.randn(150, 4)
y = (x[:, 0] + x[:, 1] ** 2 > 0.5).long()


def cycle_lr(step, period=15, lr_max=0.5):
    return 0.5 * lr_max * (1 + math.cos(math.pi * (step % period) / period))


def collect(kind):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
    names = [n for n, _ in model.named_parameters()]
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    snaps = []
    for step in range(60):
        for g in opt.param_groups:
            g["lr"] = cycle_lr(step)
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
        if (step + 1) % 15 == 0:
            if kind == "list":
                snaps.append(list(model.parameters()))  # expect: TEN402
            elif kind == "comp":
                snaps.append([p for p in model.parameters()])  # expect: TEN402
            else:
                snaps.append([p.detach().clone() for p in model.parameters()])  # ok
    with torch.no_grad():
        probs = torch.stack([
            functional_call(model, dict(zip(names, s)), (x,)).softmax(1) for s in snaps
        ])
    distinct = len({round(s[0].sum().item(), 6) for s in snaps})
    acc = (probs.mean(0).argmax(1) == y).float().mean().item()
    print(f"kind={kind} distinct_snapshots={distinct}/{len(snaps)} ensemble_acc={acc:.3f}")


for kind in ("list", "comp", "clone"):
    collect(kind)
