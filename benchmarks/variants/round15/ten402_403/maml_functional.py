"""Second-order MAML with torch.func.functional_call: fast weights are new tensors each inner step."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)


def sine_task(n=10):
    amp, phase = 0.1 + 4.9 * torch.rand(1), math.pi * torch.rand(1)
    xs = torch.empty(2 * n, 1).uniform_(-5, 5)
    ys = amp * torch.sin(xs + phase)
    return xs[:n], ys[:n], xs[n:], ys[n:]


def adapt(model, xs, ys, steps=2, inner_lr=0.01):
    fast = dict(model.named_parameters())  # ok
    for _ in range(steps):
        loss = F.mse_loss(functional_call(model, fast, (xs,)), ys)
        grads = torch.autograd.grad(loss, list(fast.values()), create_graph=True)
        fast = {n: w - inner_lr * g for (n, w), g in zip(fast.items(), grads)}  # ok
    return fast


def meta_train(iters=20, tasks_per_batch=4):
    model = nn.Sequential(nn.Linear(1, 32), nn.ReLU(), nn.Linear(32, 1))
    meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    init_copy = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok
    for _ in range(iters):
        meta_opt.zero_grad()
        total = 0.0
        for _ in range(tasks_per_batch):
            xs, ys, xq, yq = sine_task()
            fast = adapt(model, xs, ys)
            q_loss = F.mse_loss(functional_call(model, fast, (xq,)), yq)
            q_loss.backward()
            total += q_loss.item()
        meta_opt.step()
    moved = sum((v - init_copy[k]).norm().item() for k, v in model.state_dict().items())  # ok
    return total / tasks_per_batch, moved


if __name__ == "__main__":
    print(meta_train())
