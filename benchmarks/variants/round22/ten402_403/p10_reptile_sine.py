"""Reptile on sine regression tasks."""
import copy
import math

import torch
from torch import nn

torch.manual_seed(0)


def sample_task(gen):
    amp = 0.5 + 4.5 * torch.rand(1, generator=gen).item()
    phase = math.pi * torch.rand(1, generator=gen).item()
    x = 10 * torch.rand(20, 1, generator=gen) - 5
    return x, amp * torch.sin(x + phase)


def inner_sgd(model, x, y, steps, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        opt.step()


def reptile(model, meta_iters, eps, gen):
    for it in range(meta_iters):
        x, y = sample_task(gen)
        before = model.state_dict()  # expect: TEN402
        inner_sgd(model, x, y, steps=5, lr=0.02)
        after = model.state_dict()  # ok
        model.load_state_dict({k: before[k] + eps * (after[k] - before[k]) for k in before})


def reptile_functional(model, meta_iters, eps, gen):
    """Same algorithm with an explicit task copy of the model."""
    for it in range(meta_iters):
        x, y = sample_task(gen)
        task_model = copy.deepcopy(model)  # ok
        inner_sgd(task_model, x, y, steps=5, lr=0.02)
        with torch.no_grad():
            for p, q in zip(model.parameters(), task_model.parameters()):
                p.add_(eps * (q - p))


def make():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))


for name, algo in (("state_dict", reptile), ("deepcopy", reptile_functional)):
    gen = torch.Generator().manual_seed(7)
    model = make()
    algo(model, meta_iters=30, eps=0.1, gen=gen)
    xt, yt = sample_task(gen)
    mse = lambda: ((model(xt) - yt) ** 2).mean().item()
    with torch.no_grad():
        pre = mse()
    # meta-test: adapt to the new task, then go back to the meta-initialisation
    meta_init = model.state_dict().copy()  # expect: TEN402
    inner_sgd(model, xt, yt, steps=10, lr=0.02)
    with torch.no_grad():
        adapted = mse()
        model.load_state_dict(meta_init)
        restored = mse()
    print(f"{name:<10} new task: meta-init {pre:.5f}, adapted {adapted:.5f}, "
          f"restored {restored:.5f}; out bias {model[-1].bias.item():.5f}")
