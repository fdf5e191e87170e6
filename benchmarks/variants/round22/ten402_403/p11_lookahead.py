"""Lookahead wrapper around an inner optimizer (slow/fast weights)."""
import torch
from torch import nn

torch.manual_seed(0)


class Lookahead:
    def __init__(self, base, k=5, alpha=0.5):
        self.base, self.k, self.alpha = base, k, alpha
        self.counter = 0
        self.slow = [[p.data for p in g["params"]] for g in base.param_groups]  # expect: TEN402

    def zero_grad(self):
        self.base.zero_grad()

    @torch.no_grad()
    def step(self):
        self.base.step()
        self.counter += 1
        if self.counter % self.k:
            return
        for group, slows in zip(self.base.param_groups, self.slow):
            for fast, slow in zip(group["params"], slows):
                slow.add_(fast - slow, alpha=self.alpha)
                fast.copy_(slow)


class LookaheadCloned(Lookahead):
    def __init__(self, base, k=5, alpha=0.5):
        super().__init__(base, k, alpha)
        self.slow = [[p.detach().clone() for p in g["params"]] for g in base.param_groups]  # ok


def run(cls):
    torch.manual_seed(2)
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = cls(torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9), k=4, alpha=0.5)
    x = torch.randn(64, 4)
    y = (x ** 2).sum(1, keepdim=True)
    for _ in range(40):
        opt.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        opt.step()
    with torch.no_grad():
        loss = ((model(x) - y) ** 2).mean().item()
    print(f"{cls.__name__:<15} loss {loss:.5f}  bias {model[2].bias.item():.5f}")


run(Lookahead)
run(LookaheadCloned)
