"""First-order MAML / Reptile written with state_dict save-and-restore."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def sample_task(n=10):
    a, p = torch.rand(1) * 4 + 0.1, torch.rand(1) * 3.14
    x = torch.rand(n, 1) * 10 - 5
    return x, a * torch.sin(x + p)


def reptile_step(model, inner_lr=0.02, outer_lr=0.1, inner_steps=5):
    old_weights = model.state_dict()  # expect: TEN402
    inner_opt = torch.optim.SGD(model.parameters(), lr=inner_lr)
    x, y = sample_task()
    for _ in range(inner_steps):
        inner_opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        inner_opt.step()
    new_weights = model.state_dict()
    model.load_state_dict({
        name: old_weights[name] + outer_lr * (new_weights[name] - old_weights[name])
        for name in old_weights
    })


def reptile_step_ok(model, inner_lr=0.02, outer_lr=0.1, inner_steps=5):
    old_weights = copy.deepcopy(model.state_dict())  # ok
    inner_opt = torch.optim.SGD(model.parameters(), lr=inner_lr)
    x, y = sample_task()
    for _ in range(inner_steps):
        inner_opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        inner_opt.step()
    new_weights = model.state_dict()  # ok
    model.load_state_dict({
        name: old_weights[name] + outer_lr * (new_weights[name] - old_weights[name])
        for name in old_weights
    })


def fomaml_outer(model, meta_opt, tasks, inner_lr=0.01):
    meta_opt.zero_grad()
    for x_s, y_s, x_q, y_q in tasks:
        theta = {k: v for k, v in model.state_dict().items()}  # expect: TEN402
        adapt(model, x_s, y_s, inner_lr)
        q_loss = F.mse_loss(model(x_q), y_q)
        grads = torch.autograd.grad(q_loss, list(model.parameters()))
        model.load_state_dict(theta)  # back to the meta-parameters
        for p, g in zip(model.parameters(), grads):
            p.grad = g if p.grad is None else p.grad + g
    meta_opt.step()


def adapt(model, x, y, lr, steps=3):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()


def fomaml_outer_ok(model, meta_opt, tasks, inner_lr=0.01):
    meta_opt.zero_grad()
    for x_s, y_s, x_q, y_q in tasks:
        learner = copy.deepcopy(model)
        adapt(learner, x_s, y_s, inner_lr)
        q_loss = F.mse_loss(learner(x_q), y_q)
        grads = torch.autograd.grad(q_loss, list(learner.parameters()))
        for p, g in zip(model.parameters(), grads):
            p.grad = g if p.grad is None else p.grad + g
    meta_opt.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
    before = {k: v.clone() for k, v in net.state_dict().items()}
    reptile_step(net)
    # with the bug, old == new, so the outer update is a no-op and the model keeps the inner-loop weights
    adapted = {k: v.clone() for k, v in net.state_dict().items()}
    net2 = copy.deepcopy(net)
    net.load_state_dict(before)
    torch.manual_seed(1)
    reptile_step(net)
    net2.load_state_dict(before)
    torch.manual_seed(1)
    reptile_step_ok(net2)
    print("buggy reptile moved the full inner distance (old == new)?",
          not all(torch.allclose(a, b) for a, b in zip(net.state_dict().values(), net2.state_dict().values())))
    x_s, y_s = sample_task()
    x_q, y_q = sample_task()
    meta_opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    snap = {k: v.clone() for k, v in net.state_dict().items()}
    fomaml_outer(net, meta_opt, [(x_s, y_s, x_q, y_q)])
