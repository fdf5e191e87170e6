"""Sine-regression meta-learning: first-order Reptile plus a functional MAML loss."""
import math

import torch
from torch import nn
from torch.func import functional_call


def sample_task(gen):
    amp = 0.1 + 4.9 * torch.rand(1, generator=gen).item()
    phase = math.pi * torch.rand(1, generator=gen).item()
    def batch(n):
        x = (torch.rand(n, 1, generator=gen) - 0.5) * 10
        return x, amp * torch.sin(x + phase)
    return batch


def make_net():
    return nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))


def reptile(meta_iters=5, inner_steps=4, inner_lr=0.02, meta_lr=0.5, seed=0):
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    net = make_net()
    for it in range(meta_iters):
        task = sample_task(gen)
        weights_before = net.state_dict()  # expect: TEN402
        inner_opt = torch.optim.SGD(net.parameters(), lr=inner_lr)
        for _ in range(inner_steps):
            x, y = task(10)
            inner_opt.zero_grad()
            nn.functional.mse_loss(net(x), y).backward()
            inner_opt.step()
        weights_after = net.state_dict()  # ok
        frac = meta_lr * (1 - it / meta_iters)
        net.load_state_dict({
            name: weights_before[name] + frac * (weights_after[name] - weights_before[name])
            for name in weights_before
        })
    return net


def maml_loss(net, tasks, inner_lr=0.01, inner_steps=1):
    """Second-order MAML outer loss; fast weights are built functionally."""
    outer = 0.0
    for task in tasks:
        fast = {n: p for n, p in net.named_parameters()}  # ok
        x_s, y_s = task(10)
        for _ in range(inner_steps):
            loss = nn.functional.mse_loss(functional_call(net, fast, (x_s,)), y_s)
            grads = torch.autograd.grad(loss, list(fast.values()), create_graph=True)
            fast = {n: w - inner_lr * g for (n, w), g in zip(fast.items(), grads)}
        x_q, y_q = task(10)
        outer = outer + nn.functional.mse_loss(functional_call(net, fast, (x_q,)), y_q)
    return outer / len(tasks)


def maml(meta_iters=3, seed=0):
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed + 1)
    net = make_net()
    meta_opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for _ in range(meta_iters):
        meta_opt.zero_grad()
        maml_loss(net, [sample_task(gen) for _ in range(3)]).backward()
        meta_opt.step()
    return net


if __name__ == "__main__":
    net = reptile()
    print("reptile done", sum(p.numel() for p in net.parameters()))
    net = maml()
    print("maml done")
