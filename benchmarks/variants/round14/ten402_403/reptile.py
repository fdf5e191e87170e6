"""Reptile meta-learning on random sine-wave regression tasks."""
import math

import torch
from torch import nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters


def sample_task(gen):
    amp = 0.1 + 4.9 * torch.rand(1, generator=gen).item()
    phase = math.pi * torch.rand(1, generator=gen).item()
    x = torch.rand(10, 1, generator=gen) * 10 - 5
    return x, amp * torch.sin(x + phase)


def inner_sgd(model, x, y, steps=4, lr=0.02):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def reptile_step_buggy(model, task, meta_lr=0.5):
    theta = [p.detach() for p in model.parameters()]  # expect: TEN402
    inner_sgd(model, *task)
    with torch.no_grad():
        for p, p0 in zip(model.parameters(), theta):
            p.copy_(p0 + meta_lr * (p - p0))


def reptile_step_vector(model, task, meta_lr=0.5):
    theta = parameters_to_vector(model.parameters()).detach()  # ok
    inner_sgd(model, *task)
    with torch.no_grad():
        adapted = parameters_to_vector(model.parameters())
        vector_to_parameters(theta + meta_lr * (adapted - theta), model.parameters())


def reptile_step_cloned(model, task, meta_lr=0.5):
    theta = [p.detach().clone() for p in model.parameters()]  # ok
    inner_sgd(model, *task)
    with torch.no_grad():
        for p, p0 in zip(model.parameters(), theta):
            p.copy_(p0 + meta_lr * (p - p0))


def meta_train(step_fn, iters=15):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
    start = parameters_to_vector(model.parameters()).detach().clone()  # ok
    last_delta = 0.0
    for _ in range(iters):
        before = parameters_to_vector(model.parameters()).detach().clone()  # ok
        step_fn(model, sample_task(gen))
        after = parameters_to_vector(model.parameters()).detach()  # ok
        last_delta = (after - before).norm().item()
    total = (parameters_to_vector(model.parameters()).detach() - start).norm().item()
    print(f"{step_fn.__name__}: total drift {total:.4f}, last meta step {last_delta:.4f}")


if __name__ == "__main__":
    meta_train(reptile_step_buggy)
    meta_train(reptile_step_vector)
    meta_train(reptile_step_cloned)
