"""Exponential moving averages: of the loss, of the weights, and inside a custom norm layer."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class LossSmoother:
    def __init__(self, beta=0.9):
        self.beta = beta
        self.ema = None

    def update(self, value):
        self.ema = value if self.ema is None else self.beta * self.ema + (1 - self.beta) * value
        return self.ema


class SimpleNorm(nn.Module):
    def __init__(self, d, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(d))
        self.register_buffer("running_mean_ok", torch.zeros(d))

    def forward(self, x):
        batch_mean = x.mean(0)
        if self.training:
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * batch_mean  # expect: TEN501
            with torch.no_grad():
                self.running_mean_ok.mul_(1 - self.momentum).add_(self.momentum * batch_mean)  # ok
        return x - batch_mean


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), SimpleNorm(6), nn.ReLU(), nn.Linear(6, 1))
ema_model = copy.deepcopy(model)
for p in ema_model.parameters():
    p.requires_grad_(False)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
smoother, smoother_ok = LossSmoother(), LossSmoother()
for step in range(5):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    smoother.update(loss)  # expect: TEN501
    smoother_ok.update(loss.item())  # ok
    with torch.no_grad():
        for ema_p, p in zip(ema_model.parameters(), model.parameters()):
            ema_p.mul_(0.99).add_(p, alpha=0.01)  # ok
print(float(smoother.ema), smoother_ok.ema, model[1].running_mean.shape)
