"""Second-order MAML on the sinusoid regression toy problem."""
import math
import random

import torch
import torch.nn.functional as F


def init_params(hidden=40):
    def lin(i, o):
        w = torch.randn(o, i) * math.sqrt(2.0 / i)
        return [w.requires_grad_(), torch.zeros(o, requires_grad=True)]

    return lin(1, hidden) + lin(hidden, hidden) + lin(hidden, 1)


def functional_forward(params, x):
    h = x
    for j in range(0, len(params) - 2, 2):
        h = F.relu(F.linear(h, params[j], params[j + 1]))
    return F.linear(h, params[-2], params[-1])


def sample_task():
    amp, phase = random.uniform(0.1, 5.0), random.uniform(0, math.pi)

    def draw(n):
        x = torch.empty(n, 1).uniform_(-5, 5)
        return x, amp * torch.sin(x + phase)

    return draw


def adapt(params, x, y, inner_lr=0.01, steps=1):
    fast = list(params)
    for _ in range(steps):
        loss = F.mse_loss(functional_forward(fast, x), y)
        grads = torch.autograd.grad(loss, fast, create_graph=True)
        fast = [p - inner_lr * g for p, g in zip(fast, grads)]
    return fast


def meta_train(iterations=2000, tasks_per_batch=8, k_shot=10):
    params = init_params()
    meta_opt = torch.optim.Adam(params, lr=1e-3)
    per_task_history = []
    meta_curve = []
    for it in range(iterations):
        meta_loss = 0.0
        task_losses = []
        for _ in range(tasks_per_batch):
            draw = sample_task()
            xs, ys = draw(k_shot)
            xq, yq = draw(k_shot)
            fast = adapt(params, xs, ys)
            q_loss = F.mse_loss(functional_forward(fast, xq), yq)
            meta_loss = meta_loss + q_loss  # ok
            task_losses.append(q_loss)  # ok
        meta_loss = meta_loss / tasks_per_batch
        meta_opt.zero_grad()
        meta_loss.backward()
        meta_opt.step()

        per_task_history.extend(task_losses)  # expect: TEN501
        meta_curve.append(meta_loss.item())  # ok
        if it % 200 == 0:
            print(it, sum(meta_curve[-200:]) / len(meta_curve[-200:]))
    return params, per_task_history
