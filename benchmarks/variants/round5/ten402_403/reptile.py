"""Reptile (Nichol et al., 2018) on toy sine regression."""
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


def get_params(model):
    return [p.data for p in model.parameters()]


def sample_task(rng):
    amp = rng.uniform(0.1, 5.0)
    phase = rng.uniform(0.0, math.pi)

    def f(x):
        return amp * torch.sin(x + phase)
    return f


def task_batch(f, n=10):
    x = torch.rand(n, 1) * 10.0 - 5.0
    return x, f(x)


def reptile_step(model, f, inner_steps=5, inner_lr=0.02, meta_lr=0.1):
    before = get_params(model)  # expect: TEN402
    inner_opt = torch.optim.SGD(model.parameters(), lr=inner_lr)
    for _ in range(inner_steps):
        x, y = task_batch(f)
        inner_opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        inner_opt.step()
    after = get_params(model)  # ok
    with torch.no_grad():
        for p, b, a in zip(model.parameters(), before, after):
            p.copy_(b + meta_lr * (a - b))


def meta_train(iterations=200, seed=0):
    rng = random.Random(seed)
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(1, 40), nn.Tanh(), nn.Linear(40, 40), nn.Tanh(), nn.Linear(40, 1))
    for it in range(iterations):
        reptile_step(model, sample_task(rng), meta_lr=0.1 * (1 - it / iterations))
    return model


if __name__ == "__main__":
    meta_train()
    torch.manual_seed(0)
    net = nn.Linear(1, 1)
    w0 = net.weight.detach().clone()
    f = sample_task(random.Random(1))
    opt = torch.optim.SGD(net.parameters(), lr=0.02)
    for _ in range(5):
        x, y = task_batch(f)
        opt.zero_grad()
        F.mse_loss(net(x), y).backward()
        opt.step()
    w_inner = net.weight.detach().clone()
    torch.manual_seed(0)
    net2 = nn.Linear(1, 1)
    reptile_step(net2, f, meta_lr=0.1)
    print("w0", w0.item(), "inner", w_inner.item(), "after reptile step", net2.weight.item())
