"""Lookahead optimizer wrapper (k fast steps, then slow weights interpolate)."""
import torch
import torch.nn as nn


class Lookahead:
    def __init__(self, base, k=5, alpha=0.5):
        self.base, self.k, self.alpha = base, k, alpha
        self.steps = 0
        self.slow = [[p.data for p in g["params"]] for g in base.param_groups]  # expect: TEN402

    def zero_grad(self):
        self.base.zero_grad()

    @torch.no_grad()
    def step(self):
        self.base.step()
        self.steps += 1
        if self.steps % self.k == 0:
            for group, slows in zip(self.base.param_groups, self.slow):
                for p, s in zip(group["params"], slows):
                    s.add_(p - s, alpha=self.alpha)
                    p.copy_(s)


class LookaheadCloned(Lookahead):
    def __init__(self, base, k=5, alpha=0.5):
        self.base, self.k, self.alpha = base, k, alpha
        self.steps = 0
        self.slow = [[p.detach().clone() for p in g["params"]] for g in base.param_groups]  # ok


def train(cls):
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))
    x = torch.randn(50, 3)
    y = x.pow(2).sum(1, keepdim=True)
    opt = cls(torch.optim.SGD(m.parameters(), lr=0.05))
    for _ in range(30):
        opt.zero_grad()
        ((m(x) - y) ** 2).mean().backward()
        opt.step()
    with torch.no_grad():
        return ((m(x) - y) ** 2).mean().item()


print("lookahead", round(train(Lookahead), 6))
print("lookahead (cloned slow)", round(train(LookaheadCloned), 6))
