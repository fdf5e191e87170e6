"""Lookahead optimizer wrapper (slow/fast weights)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Lookahead:
    def __init__(self, base, k=3, alpha=0.5, naive=False):
        self.base, self.k, self.alpha, self.steps = base, k, alpha, 0
        params = [p for g in base.param_groups for p in g["params"]]
        if naive:
            self.slow = [p.detach() for p in params]  # expect: TEN402
        else:
            self.slow = [p.detach().clone() for p in params]  # ok

    @torch.no_grad()
    def step(self):
        self.base.step()
        self.steps += 1
        if self.steps % self.k == 0:
            fast = [p for g in self.base.param_groups for p in g["params"]]
            for s, p in zip(self.slow, fast):
                s.add_(p - s, alpha=self.alpha)
                p.copy_(s)

    def zero_grad(self):
        self.base.zero_grad()


def run(naive):
    torch.manual_seed(1)
    m = nn.Linear(3, 1)
    opt = Lookahead(torch.optim.SGD(m.parameters(), lr=0.1), naive=naive)
    x, y = torch.randn(30, 3), torch.randn(30, 1)
    for _ in range(9):
        opt.zero_grad()
        ((m(x) - y) ** 2).mean().backward()
        opt.step()
    return m.weight.detach().clone()  # ok


print("lookahead effect lost:", (run(True) - run(False)).abs().sum().item())
