"""Decorators that log return values, plus class-level registries."""
import functools
import time

import torch
from torch import nn

LOSS_LOG = []
SCALARS = []
DURATIONS = []


def log_returns(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        out = fn(*args, **kwargs)
        LOSS_LOG.append(out)  # expect: TEN501
        return out
    return wrapper


def log_scalar(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        out = fn(*args, **kwargs)
        SCALARS.append(float(out))  # ok
        return out
    return wrapper


def timed(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            DURATIONS.append(time.perf_counter() - t0)  # ok
    return wrapper


class RunStats:
    history = []
    steps = 0
    peak = None


torch.manual_seed(0)
model = nn.Linear(5, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
xs = torch.randn(30, 5)
ys = xs.sum(dim=1, keepdim=True)


@timed
@log_returns
def step(x, y):
    opt.zero_grad()
    loss = nn.functional.l1_loss(model(x), y)
    loss.backward()
    opt.step()
    return loss


@log_scalar
def val_step(x, y):
    return nn.functional.l1_loss(model(x), y)


for i in range(6):
    sl = slice(5 * i, 5 * i + 5)
    loss = step(xs[sl], ys[sl])
    RunStats.history.append(loss)  # expect: TEN501
    RunStats.steps += 1  # ok
    RunStats.peak = loss.item() if RunStats.peak is None else max(RunStats.peak, loss.item())  # ok
    with torch.no_grad():
        val_step(xs[:5], ys[:5])

print(len(LOSS_LOG), len(SCALARS), len(DURATIONS), RunStats.steps, round(RunStats.peak, 3))
