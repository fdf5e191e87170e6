"""Reptile on sine-wave regression (Nichol et al., 2018)."""
import copy
import math
import random

import torch
from torch import nn


def sample_task():
    amp = random.uniform(0.1, 5.0)
    phase = random.uniform(0, math.pi)

    def batch(n=10):
        x = torch.empty(n, 1).uniform_(-5, 5)
        return x, amp * torch.sin(x + phase)

    return batch


net = nn.Sequential(nn.Linear(1, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1))
inner_lr, inner_steps = 0.02, 32
outer_lr0, outer_iters = 0.1, 30000


def inner_train(model, task, steps):
    opt = torch.optim.SGD(model.parameters(), lr=inner_lr)
    for _ in range(steps):
        x, y = task()
        loss = (model(x) - y).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def meta_train():
    for it in range(outer_iters):
        task = sample_task()
        weights_before = {n: p.detach() for n, p in net.named_parameters()}  # expect: TEN402
        inner_train(net, task, inner_steps)
        outer_lr = outer_lr0 * (1 - it / outer_iters)
        with torch.no_grad():
            for n, p in net.named_parameters():
                p.copy_(weights_before[n] + (p - weights_before[n]) * outer_lr)
        if it % 1000 == 0:
            print(it, evaluate())


def evaluate(n_tasks=20):
    total = 0.0
    for _ in range(n_tasks):
        task = sample_task()
        snapshot = copy.deepcopy(net.state_dict())  # ok
        inner_train(net, task, 8)
        x, y = task(100)
        with torch.no_grad():
            total += (net(x) - y).pow(2).mean().item()
        net.load_state_dict(snapshot)
    return total / n_tasks


def meta_test(task, steps=16):
    learner = copy.deepcopy(net)  # ok
    inner_train(learner, task, steps)
    return learner


if __name__ == "__main__":
    meta_train()
