"""Meta-learning bookkeeping: MAML-style per-task evaluation with resets, and a Reptile outer loop."""
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

torch.manual_seed(0)
torch.set_num_threads(1)


@dataclass
class Task:
    xs: torch.Tensor
    ys: torch.Tensor
    xq: torch.Tensor
    yq: torch.Tensor


def sample_task(gen):
    amp = 0.5 + 2 * torch.rand(1, generator=gen)
    phase = 3.0 * torch.rand(1, generator=gen)
    xs = torch.rand(10, 1, generator=gen) * 6 - 3
    xq = torch.rand(10, 1, generator=gen) * 6 - 3
    return Task(xs, amp * torch.sin(xs + phase), xq, amp * torch.sin(xq + phase))


def inner_loop(model, x, y, lr=0.05, steps=3):
    for _ in range(steps):
        loss = nn.functional.mse_loss(model(x), y)
        grads = torch.autograd.grad(loss, list(model.parameters()))
        with torch.no_grad():
            for p, g in zip(model.parameters(), grads):
                p.sub_(lr * g)


def evaluate_leaky(model, tasks):
    init = [p.data for p in model.parameters()]  # expect: TEN402
    losses = []
    for t in tasks:
        inner_loop(model, t.xs, t.ys)
        with torch.no_grad():
            losses.append(nn.functional.mse_loss(model(t.xq), t.yq).item())
            for p, w in zip(model.parameters(), init):
                p.copy_(w)
    return losses


def evaluate_reset(model, tasks):
    init = [p.detach().clone() for p in model.parameters()]  # ok
    losses = []
    for t in tasks:
        inner_loop(model, t.xs, t.ys)
        with torch.no_grad():
            losses.append(nn.functional.mse_loss(model(t.xq), t.yq).item())
            for p, w in zip(model.parameters(), init):
                p.copy_(w)  # ok
    return losses


EPS = 0.5


def task_batch(seed):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(3, 1, generator=g)
    x = torch.randn(24, 3, generator=g)
    return x, x @ w


def adapt_linear(net, x, y, steps=4):
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.mse_loss(net(x), y).backward()
        opt.step()


def reptile_by_list(net, iters):
    for it in range(iters):
        start = list(net.parameters())  # expect: TEN402
        adapt_linear(net, *task_batch(it))
        with torch.no_grad():
            for p, s in zip(net.parameters(), start):
                p.copy_(s + EPS * (p - s))
    return net


def reptile_by_vector(net, iters):
    for it in range(iters):
        theta0 = parameters_to_vector(net.parameters()).detach()  # ok
        adapt_linear(net, *task_batch(it))
        theta1 = parameters_to_vector(net.parameters()).detach()  # ok
        vector_to_parameters(theta0 + EPS * (theta1 - theta0), net.parameters())
    return net


if __name__ == "__main__":
    g = torch.Generator().manual_seed(11)
    tasks = [sample_task(g) for _ in range(5)]
    for fn in (evaluate_leaky, evaluate_reset):
        torch.manual_seed(2)
        net = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
        print(fn.__name__, [round(v, 3) for v in fn(net, tasks)])
    for outer in (reptile_by_list, reptile_by_vector):
        torch.manual_seed(0)
        net = outer(nn.Linear(3, 1), 6)
        print(outer.__name__, [round(v, 4) for v in net.weight.data.flatten().tolist()])
