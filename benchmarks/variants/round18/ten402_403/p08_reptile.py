"""Reptile meta-learning on sine-wave regression tasks."""
import copy
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def sample_task():
    amp = torch.empty(1).uniform_(0.5, 2.0).item()
    phase = torch.empty(1).uniform_(0, math.pi).item()
    x = torch.empty(20, 1).uniform_(-3, 3)
    return x, amp * torch.sin(x + phase)


def inner_loop(model, task, steps=5, lr=0.02):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x, y = task
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()


def reptile_step(model, epsilon=0.3):
    old = [p.data for p in model.parameters()]  # expect: TEN402
    inner_loop(model, sample_task())
    for p, o in zip(model.parameters(), old):
        p.data = o + epsilon * (p.data - o)


def reptile_step_state(model, epsilon=0.3):
    weights_before = copy.deepcopy(model.state_dict())  # ok
    inner_loop(model, sample_task())
    weights_after = model.state_dict()  # ok
    model.load_state_dict({
        name: weights_before[name] + epsilon * (weights_after[name] - weights_before[name])
        for name in weights_before
    })


def reptile_step_named(model, epsilon=0.3):
    before = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok
    inner_loop(model, sample_task())
    with torch.no_grad():
        for n, p in model.named_parameters():
            p.copy_(before[n] + epsilon * (p - before[n]))


def meta_train(step_fn, iters=15):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
    start = torch.cat([p.detach().flatten() for p in model.parameters()])  # ok
    for _ in range(iters):
        step_fn(model)
    end = torch.cat([p.detach().flatten() for p in model.parameters()])
    return (end - start).norm().item()


if __name__ == "__main__":
    for fn in (reptile_step, reptile_step_state, reptile_step_named):
        print(fn.__name__, round(meta_train(fn), 4))
