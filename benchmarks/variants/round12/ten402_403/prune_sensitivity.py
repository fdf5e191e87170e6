"""Per-layer pruning sensitivity scan.

For each prunable layer and each sparsity level, zero the smallest weights,
measure accuracy, then put the original weights back before the next trial.
"""
from collections import OrderedDict

import torch
import torch.nn as nn


@torch.no_grad()
def accuracy(model, loader):
    model.eval()
    hit = tot = 0
    for x, y in loader:
        hit += (model(x).argmax(1) == y).sum().item()
        tot += y.numel()
    return hit / tot


@torch.no_grad()
def magnitude_prune_(weight: torch.Tensor, sparsity: float):
    k = int(sparsity * weight.numel())
    if k == 0:
        return
    thresh = weight.abs().flatten().kthvalue(k).values
    weight.mul_((weight.abs() > thresh).to(weight.dtype))


def prunable(model):
    for name, m in model.named_modules():
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            yield name, m


def sensitivity_scan(model, loader, levels=(0.3, 0.5, 0.7, 0.9)):
    original = OrderedDict(model.state_dict())  # expect: TEN402
    baseline = accuracy(model, loader)
    table = {}
    for name, layer in prunable(model):
        row = []
        for s in levels:
            magnitude_prune_(layer.weight, s)
            row.append(baseline - accuracy(model, loader))
            model.load_state_dict(original)
        table[name] = row
    return baseline, table


def sensitivity_scan_safe(model, loader, levels=(0.3, 0.5, 0.7, 0.9)):
    original = OrderedDict((k, v.clone()) for k, v in model.state_dict().items())  # ok
    baseline = accuracy(model, loader)
    table = {}
    for name, layer in prunable(model):
        saved_w = layer.weight.detach().clone()  # ok
        row = []
        for s in levels:
            magnitude_prune_(layer.weight, s)
            row.append(baseline - accuracy(model, loader))
            with torch.no_grad():
                layer.weight.copy_(saved_w)
        table[name] = row
    model.load_state_dict(original)
    return baseline, table


def format_table(table, levels=(0.3, 0.5, 0.7, 0.9)):
    head = "layer".ljust(30) + "".join(f"{s:>8.0%}" for s in levels)
    lines = [head]
    for name, row in table.items():
        lines.append(name.ljust(30) + "".join(f"{d:>8.3f}" for d in row))
    return "\n".join(lines)
