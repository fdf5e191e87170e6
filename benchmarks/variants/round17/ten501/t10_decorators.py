"""Decorators that wrap a training step and remember its result."""
import functools
import time

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def keep_history(fn):
    history = []

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        out = fn(*args, **kwargs)
        history.append(out)  # expect: TEN501
        return out

    wrapper.history = history
    return wrapper


def log_scalar(fn):
    scalars = []

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        out = fn(*args, **kwargs)
        scalars.append((float(out), time.perf_counter() - t0))  # ok
        return out

    wrapper.scalars = scalars
    return wrapper


model_a = nn.Linear(4, 1)
model_b = nn.Linear(4, 1)
opt_a = torch.optim.SGD(model_a.parameters(), lr=0.1)
opt_b = torch.optim.SGD(model_b.parameters(), lr=0.1)


@keep_history
def step_a(x, y):
    loss = nn.functional.smooth_l1_loss(model_a(x), y)
    opt_a.zero_grad()
    loss.backward()
    opt_a.step()
    return loss


@log_scalar
def step_b(x, y):
    loss = nn.functional.smooth_l1_loss(model_b(x), y)
    opt_b.zero_grad()
    loss.backward()
    opt_b.step()
    return loss


total_b = torch.zeros(())
for it in range(8):
    x = torch.randn(10, 4)
    y = x[:, :1] * 2
    step_a(x, y)
    total_b += step_b(x, y).detach()  # ok

print(len(step_a.history), step_b.scalars[-1][0], total_b.item())
