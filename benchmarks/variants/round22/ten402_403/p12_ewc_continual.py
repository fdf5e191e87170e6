"""Elastic weight consolidation across two regression tasks."""
import torch
from torch import nn

torch.manual_seed(0)


class EWC:
    def __init__(self, model, x, y, lam):
        self.lam = lam
        self.anchor = {n: p.detach() for n, p in model.named_parameters()}  # expect: TEN402
        model.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        self.fisher = {n: p.grad.detach() ** 2 + 1e-3 for n, p in model.named_parameters()}  # ok
        model.zero_grad()

    def penalty(self, model):
        total = 0.0
        for n, p in model.named_parameters():
            total = total + (self.fisher[n] * (p - self.anchor[n]) ** 2).sum()
        return 0.5 * self.lam * total


def fit(model, x, y, steps, reg=None):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for _ in range(steps):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        if reg is not None:
            loss = loss + reg.penalty(model)
        loss.backward()
        opt.step()


def mse(model, x, y):
    with torch.no_grad():
        return ((model(x) - y) ** 2).mean().item()


model = nn.Sequential(nn.Linear(3, 20), nn.Tanh(), nn.Linear(20, 1))
xa = torch.randn(100, 3)
ya = xa @ torch.tensor([[1.0], [-1.0], [2.0]])
xb = torch.randn(100, 3) + 1.0
yb = xb @ torch.tensor([[-2.0], [0.5], [1.0]])

fit(model, xa, ya, 150)
loss_a_before = mse(model, xa, ya)
ewc = EWC(model, xa, ya, lam=200.0)
fit(model, xb, yb, 150, reg=ewc)
print(f"task A loss after A {loss_a_before:.5f}, after B {mse(model, xa, ya):.5f}; task B {mse(model, xb, yb):.5f}")
print(f"final EWC penalty {ewc.penalty(model).item():.5f}")
