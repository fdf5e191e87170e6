"""Cyclic-LR snapshot collection + uniform weight averaging (SWA-style)."""
import math

import torch
import torch.nn as nn


def cosine_cycle_lr(step, cycle_len, lr_max, lr_min=0.0):
    t = (step % cycle_len) / cycle_len
    return lr_min + 0.5 * (lr_max - lr_min) * (1 + math.cos(math.pi * t))


class SnapshotCollector:
    def __init__(self):
        self.snapshots = []

    def collect(self, model: nn.Module):
        self.snapshots.append(model.state_dict())  # expect: TEN402

    def averaged(self):
        n = len(self.snapshots)
        out = {}
        for name, ref in self.snapshots[0].items():
            if ref.is_floating_point():
                out[name] = sum(s[name] for s in self.snapshots) / n
            else:
                out[name] = ref.clone()
        return out


class CopyingCollector(SnapshotCollector):
    def collect(self, model: nn.Module):
        self.snapshots.append({k: v.detach().clone() for k, v in model.state_dict().items()})  # ok


@torch.no_grad()
def update_bn(loader, model):
    momenta = {}
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            m.reset_running_stats()
            momenta[m] = m.momentum
            m.momentum = None
    model.train()
    for x, _ in loader:
        model(x)
    for m, mom in momenta.items():
        m.momentum = mom


def train_snapshots(model, loader, cycles=5, cycle_len=2000, lr_max=0.1):
    opt = torch.optim.SGD(model.parameters(), lr=lr_max, momentum=0.9, weight_decay=5e-4)
    collector = SnapshotCollector()
    step = 0
    data = iter(loader)
    while step < cycles * cycle_len:
        try:
            x, y = next(data)
        except StopIteration:
            data = iter(loader)
            x, y = next(data)
        for g in opt.param_groups:
            g["lr"] = cosine_cycle_lr(step, cycle_len, lr_max)
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
        step += 1
        if step % cycle_len == 0:
            collector.collect(model)
    model.load_state_dict(collector.averaged())
    update_bn(loader, model)
    final_sd = model.state_dict()  # ok
    torch.save(final_sd, "swa_final.pt")
    return model
