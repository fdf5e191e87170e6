"""Reptile meta-learning on sine regression tasks."""
import math
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters


def sample_task(g):
    amp = 0.5 + 4.5 * torch.rand(1, generator=g).item()
    phase = math.pi * torch.rand(1, generator=g).item()
    x = torch.rand(20, 1, generator=g) * 10 - 5
    return x, amp * torch.sin(x + phase)


def inner_loop(net, x, y, steps=5, lr=0.02):
    opt = torch.optim.SGD(net.parameters(), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        ((net(x) - y) ** 2).mean().backward()
        opt.step()


def reptile(net, meta_iters, eps, g, use_vector):
    for it in range(meta_iters):
        x, y = sample_task(g)
        if use_vector:
            old_vec = parameters_to_vector(net.parameters()).detach()  # ok
            inner_loop(net, x, y)
            new_vec = parameters_to_vector(net.parameters()).detach()
            vector_to_parameters(old_vec + eps * (new_vec - old_vec), net.parameters())
        else:
            old = [p.data for p in net.parameters()]  # expect: TEN402
            inner_loop(net, x, y)
            with torch.no_grad():
                for p, o in zip(net.parameters(), old):
                    p.copy_(o + eps * (p - o))


for use_vector in (False, True):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    net = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
    reptile(net, 30, 0.1, g, use_vector)
    xt, yt = sample_task(g)
    with torch.no_grad():
        pre = ((net(xt) - yt) ** 2).mean().item()
    print("vector" if use_vector else "list", "meta-init test mse", round(pre, 6),
          "param sum", round(parameters_to_vector(net.parameters()).sum().item(), 6))
