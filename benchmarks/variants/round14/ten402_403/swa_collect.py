"""Cyclic-LR snapshot collection followed by stochastic weight averaging."""
import math

import torch
from torch import nn


def cosine_lr(step, cycle, lr_max=0.2, lr_min=0.01):
    t = (step % cycle) / cycle
    return lr_min + 0.5 * (lr_max - lr_min) * (1 + math.cos(math.pi * t))


class SnapshotCollector:
    def __init__(self):
        self.collected = []

    def on_cycle_end(self, model):
        self.collected.append(dict(model.state_dict()))  # expect: TEN402

    def averaged(self):
        keys = self.collected[0].keys()
        return {k: torch.stack([s[k].float() for s in self.collected]).mean(0) for k in keys}


class CopyingCollector(SnapshotCollector):
    def on_cycle_end(self, model):
        self.collected.append({k: v.detach().clone() for k, v in model.state_dict().items()})  # ok


def spread(states):
    flat = [torch.cat([v.flatten() for v in s.values()]) for s in states]
    ref = flat[0]
    return max((f - ref).norm().item() for f in flat)


def run(collector_cls):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 1))
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    x, y = torch.randn(80, 5), torch.randn(80, 1)
    collector = collector_cls()
    cycle = 5
    for step in range(20):
        for g in opt.param_groups:
            g["lr"] = cosine_lr(step, cycle)
        loss = nn.functional.mse_loss(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % cycle == cycle - 1:
            collector.on_cycle_end(net)
    avg = collector.averaged()
    print(f"{collector_cls.__name__}: {len(collector.collected)} snapshots, spread={spread(collector.collected):.4f}")
    net.load_state_dict(avg)
    with torch.no_grad():
        print("  swa loss", round(nn.functional.mse_loss(net(x), y).item(), 4))


if __name__ == "__main__":
    run(SnapshotCollector)
    run(CopyingCollector)
