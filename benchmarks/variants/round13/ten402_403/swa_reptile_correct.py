"""Stochastic weight averaging with torch's AveragedModel and a first-order Reptile."""
import copy

import torch
from torch import nn
from torch.optim.swa_utils import AveragedModel, SWALR
import torch.nn.functional as F


def regression_data(seed=0, n=64):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 3, generator=g)
    return x, torch.sin(x.sum(1, keepdim=True))


def swa_train(epochs=12, swa_start=6, seed=0):
    torch.manual_seed(seed)
    x, y = regression_data(seed)
    model = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
    swa_model = AveragedModel(model)  # ok
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = SWALR(opt, swa_lr=0.05, anneal_epochs=2)
    pre_swa = None
    for epoch in range(epochs):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
        if epoch == swa_start - 1:
            pre_swa = copy.deepcopy(model.state_dict())  # ok
        if epoch >= swa_start:
            swa_model.update_parameters(model)
            sched.step()
    return model, swa_model, pre_swa


def reptile_step(net, task_data, inner_steps=3, inner_lr=0.05, meta_lr=0.3):
    before = {k: v.clone() for k, v in net.state_dict().items()}  # ok
    opt = torch.optim.SGD(net.parameters(), lr=inner_lr)
    x, y = task_data
    for _ in range(inner_steps):
        opt.zero_grad()
        F.mse_loss(net(x), y).backward()
        opt.step()
    after = net.state_dict()  # ok
    net.load_state_dict({k: before[k] + meta_lr * (after[k] - before[k]) for k in before})
    return before


def reptile(meta_iters=4, seed=0):
    torch.manual_seed(seed)
    net = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
    history = []
    for it in range(meta_iters):
        before = reptile_step(net, regression_data(seed + it, 20))
        history.append(before)
    return net, history


if __name__ == "__main__":
    model, swa_model, pre = swa_train()
    x, y = regression_data(0)
    with torch.no_grad():
        print("last", F.mse_loss(model(x), y).item(), "swa", F.mse_loss(swa_model(x), y).item())
    net, hist = reptile()
    print("meta iterations", len(hist))
