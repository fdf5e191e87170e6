"""Decorators that record what the wrapped step functions return."""
import functools
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

_REGISTRY = defaultdict(list)
_SCALARS = defaultdict(list)


def track(name):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            result = fn(*args, **kwargs)
            _REGISTRY[name].append(result)  # expect: TEN501
            return result
        return wrapper
    return deco


def track_scalar(name):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            result = fn(*args, **kwargs)
            _SCALARS[name].append(float(result))  # ok
            return result
        return wrapper
    return deco


def timed(fn):
    calls = []

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        out = fn(*args, **kwargs)
        calls.append(len(calls))  # ok
        return out
    wrapper.calls = calls
    return wrapper


model = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)


@timed
@track("train_loss")
def train_step(x, y):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


@track_scalar("train_loss_scalar")
def train_step_scalar(x, y):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


for i in range(8):
    x, y = torch.randn(8, 5), torch.randint(0, 2, (8,))
    train_step(x, y)
    train_step_scalar(x, y)

print("tracked", len(_REGISTRY["train_loss"]), round(float(_REGISTRY["train_loss"][-1]), 4))
print("scalars", [round(v, 3) for v in _SCALARS["train_loss_scalar"]][:4], "calls", len(train_step.calls))
