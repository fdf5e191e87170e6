"""Snapshot helpers that 'move to CPU' or shallow-copy the state dict."""
import copy
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F


def cpu_state(model):
    return {k: v.cpu() for k, v in model.state_dict().items()}


def run_cpu_snapshot(model, batches, epochs=3):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    best_val, best_cpu = float("inf"), None
    for epoch in range(epochs):
        for x, y in batches:
            opt.zero_grad()
            F.mse_loss(model(x), y).backward()
            opt.step()
        val = sum(F.mse_loss(model(x), y).item() for x, y in batches)
        if val < best_val:
            best_val = val
            best_cpu = {name: t.cpu() for name, t in model.state_dict().items()}  # expect: TEN402
    model.load_state_dict(best_cpu)


def run_shallow_copies(model, batches, epochs=3):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sd = model.state_dict()  # either: TEN402
    best_a = best_b = best_c = best_d = None
    best = float("inf")
    for epoch in range(epochs):
        for x, y in batches:
            opt.zero_grad()
            F.mse_loss(model(x), y).backward()
            opt.step()
        val = sum(F.mse_loss(model(x), y).item() for x, y in batches)
        if val < best:
            best = val
            best_a = sd.copy()  # expect: TEN402
            best_b = copy.copy(sd)  # expect: TEN402
            best_c = dict(model.state_dict())  # expect: TEN402
            best_d = OrderedDict(model.state_dict())  # expect: TEN402
    model.load_state_dict(best_a)
    torch.save({"b": best_b, "c": best_c, "d": best_d}, "/tmp/_ten40x_snap.pt")


def run_correct_cpu(model, batches, epochs=3):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    best = float("inf")
    keep1 = keep2 = keep3 = None
    for epoch in range(epochs):
        for x, y in batches:
            opt.zero_grad()
            F.mse_loss(model(x), y).backward()
            opt.step()
        val = sum(F.mse_loss(model(x), y).item() for x, y in batches)
        if val < best:
            best = val
            keep1 = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}  # ok: TEN402
            keep2 = {k: v.clone() for k, v in model.state_dict().items()}  # ok: TEN402
            keep3 = copy.deepcopy(model.state_dict())  # ok: TEN402
    model.load_state_dict(keep1)
    return keep2, keep3


if __name__ == "__main__":
    m = nn.Linear(5, 1)
    b = [(torch.randn(8, 5), torch.randn(8, 1)) for _ in range(3)]
    run_cpu_snapshot(m, b)
    run_shallow_copies(m, b)
    run_correct_cpu(m, b)
