"""Reptile on sine regression: inner SGD in place, then move the init towards the adapted weights."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def sample_task(n=20):
    amp, phase = 0.1 + 4.9 * torch.rand(1), math.pi * torch.rand(1)
    x = torch.empty(n, 1).uniform_(-5, 5)
    return x, amp * torch.sin(x + phase)


def make_model():
    return nn.Sequential(nn.Linear(1, 40), nn.Tanh(), nn.Linear(40, 40), nn.Tanh(), nn.Linear(40, 1))


def inner_loop(model, x, y, steps=5, lr=0.02):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()


def reptile(meta_iters=15, meta_lr=0.1):
    model = make_model()
    for _ in range(meta_iters):
        init = model.state_dict()  # expect: TEN402
        inner_loop(model, *sample_task())
        with torch.no_grad():
            for name, p in model.named_parameters():
                p.copy_(init[name] + meta_lr * (p - init[name]))  # ok
    return model


def reptile_fixed(meta_iters=15, meta_lr=0.1):
    model = make_model()
    for _ in range(meta_iters):
        init = {k: v.clone() for k, v in model.state_dict().items()}  # ok
        inner_loop(model, *sample_task())
        with torch.no_grad():
            for name, p in model.named_parameters():
                p.copy_(init[name] + meta_lr * (p - init[name]))  # ok
    return model


if __name__ == "__main__":
    a, b = reptile(), reptile_fixed()
    x, y = sample_task(50)
    print("buggy", F.mse_loss(a(x), y).item(), "fixed", F.mse_loss(b(x), y).item())
