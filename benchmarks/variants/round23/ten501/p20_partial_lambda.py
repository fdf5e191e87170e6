"""Metric recording through functools.partial and lambdas."""
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F


def store_metric(history, value):
    history.append(value)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 4), nn.Sigmoid(), nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
history, history_ok, printed, kept = [], [], [], []
record = functools.partial(store_metric, history)
record_ok = functools.partial(store_metric, history_ok)
show = lambda v: printed.append(round(v, 4))
keep = lambda v: kept.append(v)
for step in range(5):
    x, y = torch.randn(6, 4), torch.randn(6, 1)
    out = model(x)
    loss = F.mse_loss(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    record(loss)  # expect: TEN501
    record_ok(loss.detach())  # ok
    show(loss.item())  # ok
    keep(out.mean())  # expect: TEN501
print(len(history), len(history_ok), printed[-1], len(kept))
