"""Lookahead (Zhang et al. 2019) wrapped around an inner optimizer."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Lookahead:
    def __init__(self, base, k=5, alpha=0.5):
        self.base, self.k, self.alpha = base, k, alpha
        self.param_groups = base.param_groups
        self.slow = [[p.data for p in g["params"]] for g in self.param_groups]  # expect: TEN402
        self.counter = 0

    def zero_grad(self):
        self.base.zero_grad()

    @torch.no_grad()
    def step(self):
        self.base.step()
        self.counter += 1
        if self.counter % self.k:
            return
        for group, slow_group in zip(self.param_groups, self.slow):
            for p, slow in zip(group["params"], slow_group):
                slow.add_(p - slow, alpha=self.alpha)
                p.copy_(slow)


class LookaheadFixed(Lookahead):
    def __init__(self, base, k=5, alpha=0.5):
        self.base, self.k, self.alpha = base, k, alpha
        self.param_groups = base.param_groups
        self.slow = [[p.detach().clone() for p in g["params"]] for g in self.param_groups]  # ok
        self.counter = 0


def run(cls):
    torch.manual_seed(0)
    model = nn.Linear(8, 1)
    opt = cls(torch.optim.SGD(model.parameters(), lr=0.1))
    x, y = torch.randn(64, 8), torch.randn(64, 1)
    for _ in range(20):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
    same = torch.equal(opt.slow[0][0], model.weight)
    return F.mse_loss(model(x), y).item(), same


if __name__ == "__main__":
    print("live slow weights:", run(Lookahead))
    print("cloned slow weights:", run(LookaheadFixed))
