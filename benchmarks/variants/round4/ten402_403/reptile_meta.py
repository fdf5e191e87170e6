"""Reptile meta-learning on sine regression tasks (CPU)."""
import math
import random

import torch
import torch.nn as nn

DEVICE = torch.device("cpu")


def sample_task():
    amp = random.uniform(0.1, 5.0)
    phase = random.uniform(0.0, math.pi)

    def f(x):
        return amp * torch.sin(x + phase)

    return f


def task_batch(f, n=10):
    x = torch.empty(n, 1).uniform_(-5.0, 5.0)
    return x.to(DEVICE), f(x).to(DEVICE)


class Regressor(nn.Module):
    def __init__(self, hidden=40):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(1, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x)


def inner_loop(model, f, steps=5, lr=0.02):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        x, y = task_batch(f)
        loss = (model(x) - y).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def reptile(iterations=100, meta_lr=0.1):
    model = Regressor().to(DEVICE)
    for it in range(iterations):
        before = {k: v.cpu() for k, v in model.state_dict().items()}  # expect: TEN402
        inner_loop(model, sample_task())
        after = model.state_dict()  # ok: read at once
        eps = meta_lr * (1.0 - it / iterations)
        model.load_state_dict({
            k: before[k] + eps * (after[k] - before[k]) for k in before
        })
    return model


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    reptile(iterations=5)
