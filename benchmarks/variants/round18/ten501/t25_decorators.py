"""Decorators that record what the decorated loss functions return."""
import functools
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

timings = []


def track_calls(fn):
    calls = []

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        result = fn(*args, **kwargs)
        calls.append(result)  # expect: TEN501
        return result

    wrapper.calls = calls
    return wrapper


def timed(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        result = fn(*args, **kwargs)
        timings.append(time.perf_counter() - t0)  # ok
        return result
    return wrapper


def remember_last_value(fn):
    seen = []

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        result = fn(*args, **kwargs)
        seen.append(result.detach())  # ok
        return result

    wrapper.seen = seen
    return wrapper


@track_calls
def supervised_loss(model, x, y):
    return F.cross_entropy(model(x), y)


@timed
@remember_last_value
def l2_penalty(model):
    return sum(p.pow(2).sum() for p in model.parameters())


model = nn.Linear(4, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(4):
    x, y = torch.randn(6, 4), torch.randint(0, 3, (6,))
    loss = supervised_loss(model, x, y) + 1e-4 * l2_penalty(model)
    opt.zero_grad()
    loss.backward()
    opt.step()

print("calls:", len(supervised_loss.calls), "penalties:", [round(v.item(), 4) for v in l2_penalty.__wrapped__.seen])
