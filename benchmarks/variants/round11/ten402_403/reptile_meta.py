"""Reptile meta-learning on random sinusoid regression tasks."""
import math
import random

import torch
from torch import nn


def sample_task():
    amp = random.uniform(0.1, 5.0)
    phase = random.uniform(0, math.pi)

    def f(x):
        return amp * torch.sin(x + phase)

    return f


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(), nn.Linear(40, 1))

    def forward(self, x):
        return self.body(x)


def reptile(meta_iters=1000, inner_steps=5, inner_lr=0.02, outer_lr=0.1):
    net = Regressor()
    for it in range(meta_iters):
        task = sample_task()
        before = {name: p.data for name, p in net.named_parameters()}  # expect: TEN402
        inner = torch.optim.SGD(net.parameters(), lr=inner_lr)
        for _ in range(inner_steps):
            x = torch.empty(10, 1).uniform_(-5, 5)
            loss = (net(x) - task(x)).pow(2).mean()
            inner.zero_grad()
            loss.backward()
            inner.step()
        eps = outer_lr * (1 - it / meta_iters)
        with torch.no_grad():
            for name, p in net.named_parameters():
                # theta <- theta_old + eps * (theta_task - theta_old)
                p.copy_(before[name] + eps * (p - before[name]))
    return net


def reptile_fixed(meta_iters=1000, inner_steps=5, inner_lr=0.02, outer_lr=0.1):
    net = Regressor()
    for it in range(meta_iters):
        task = sample_task()
        before = {name: p.detach().clone() for name, p in net.named_parameters()}  # ok
        inner = torch.optim.SGD(net.parameters(), lr=inner_lr)
        for _ in range(inner_steps):
            x = torch.empty(10, 1).uniform_(-5, 5)
            loss = (net(x) - task(x)).pow(2).mean()
            inner.zero_grad()
            loss.backward()
            inner.step()
        eps = outer_lr * (1 - it / meta_iters)
        with torch.no_grad():
            for name, p in net.named_parameters():
                p.copy_(before[name] + eps * (p - before[name]))
    return net


if __name__ == "__main__":
    reptile(50)
    reptile_fixed(50)
