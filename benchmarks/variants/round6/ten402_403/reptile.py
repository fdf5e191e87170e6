"""Reptile and first-order MAML on a toy sine-regression task family.

The Reptile outer step follows the OpenAI reference implementation:
    theta <- theta + eps * (theta_task - theta)
"""
import copy
import math

import torch
from torch import nn


def sample_task(n=10):
    amp = torch.empty(1).uniform_(0.1, 5.0)
    phase = torch.empty(1).uniform_(0.0, math.pi)
    x = torch.empty(n, 1).uniform_(-5.0, 5.0)
    return x, amp * torch.sin(x + phase)


def make_net():
    return nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))


class Reptile:
    def __init__(self, model, inner_lr=0.02, inner_steps=5, outer_stepsize=0.1):
        self.model = model
        self.inner_lr = inner_lr
        self.inner_steps = inner_steps
        self.outer_stepsize = outer_stepsize

    def meta_step(self, task):
        x, y = task
        weights_before = [p.data for p in self.model.parameters()]  # expect: TEN402
        inner_opt = torch.optim.SGD(self.model.parameters(), lr=self.inner_lr)
        for _ in range(self.inner_steps):
            inner_opt.zero_grad()
            nn.functional.mse_loss(self.model(x), y).backward()
            inner_opt.step()
        with torch.no_grad():
            for p, before in zip(self.model.parameters(), weights_before):
                p.data = before + self.outer_stepsize * (p.data - before)


class FOMAML:
    def __init__(self, model, inner_lr=0.02, inner_steps=5, meta_lr=1e-3):
        self.model = model
        self.inner_lr = inner_lr
        self.inner_steps = inner_steps
        self.meta_opt = torch.optim.Adam(model.parameters(), lr=meta_lr)

    def meta_step(self, task):
        x, y = task
        xs, ys, xq, yq = x[:5], y[:5], x[5:], y[5:]
        learner = copy.deepcopy(self.model)  # ok
        inner_opt = torch.optim.SGD(learner.parameters(), lr=self.inner_lr)
        for _ in range(self.inner_steps):
            inner_opt.zero_grad()
            nn.functional.mse_loss(learner(xs), ys).backward()
            inner_opt.step()
        inner_opt.zero_grad()
        nn.functional.mse_loss(learner(xq), yq).backward()
        self.meta_opt.zero_grad()
        for p, lp in zip(self.model.parameters(), learner.parameters()):
            p.grad = lp.grad.detach().clone()
        self.meta_opt.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    net = make_net()
    start = copy.deepcopy(net.state_dict())  # ok
    reptile = Reptile(net)
    task = sample_task()
    reptile.meta_step(task)
    # a correct Reptile step moves only outer_stepsize (10%) of the way
    probe = make_net()
    probe.load_state_dict(start)
    opt = torch.optim.SGD(probe.parameters(), lr=0.02)
    for _ in range(5):
        opt.zero_grad()
        nn.functional.mse_loss(probe(task[0]), task[1]).backward()
        opt.step()
    print("outer step equals full inner step (bug):", torch.allclose(probe[0].weight, net[0].weight))
    fomaml = FOMAML(make_net())
    for _ in range(3):
        fomaml.meta_step(sample_task())
