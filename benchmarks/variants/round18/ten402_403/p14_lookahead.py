"""Lookahead optimizer wrapper (k fast steps, then interpolate slow weights)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Lookahead:
    def __init__(self, base, k=5, alpha=0.5):
        self.base, self.k, self.alpha = base, k, alpha
        self.param_groups = base.param_groups
        self.slow_weights = [[p.detach() for p in group["params"]] for group in self.param_groups]  # expect: TEN402
        self.counter = 0

    def zero_grad(self):
        self.base.zero_grad()

    @torch.no_grad()
    def step(self):
        self.base.step()
        self.counter += 1
        if self.counter % self.k:
            return
        for group, slows in zip(self.param_groups, self.slow_weights):
            for fast, slow in zip(group["params"], slows):
                slow.add_(fast - slow, alpha=self.alpha)
                fast.copy_(slow)


class LookaheadCloned(Lookahead):
    def __init__(self, base, k=5, alpha=0.5):
        self.base, self.k, self.alpha = base, k, alpha
        self.param_groups = base.param_groups
        self.slow_weights = [[p.detach().clone() for p in group["params"]] for group in self.param_groups]  # ok
        self.counter = 0


class LookaheadState(Lookahead):
    """Slow weights stored in the wrapped optimizer's per-parameter state."""

    def __init__(self, base, k=5, alpha=0.5):
        self.base, self.k, self.alpha = base, k, alpha
        self.param_groups = base.param_groups
        self.counter = 0
        for group in self.param_groups:
            for p in group["params"]:
                base.state[p]["slow_buffer"] = torch.empty_like(p).copy_(p)  # ok
        self.slow_weights = [[base.state[p]["slow_buffer"] for p in g["params"]] for g in self.param_groups]


def run(cls):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 10), nn.Tanh(), nn.Linear(10, 1))
    start = [p.detach().clone() for p in model.parameters()]  # ok
    opt = cls(torch.optim.SGD(model.parameters(), lr=0.2))
    x = torch.randn(40, 3)
    y = x.prod(1, keepdim=True)
    for _ in range(20):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
    moved = sum((p - s).norm().item() for p, s in zip(model.parameters(), start))
    slow_gap = sum((p - s).norm().item() for p, s in zip(model.parameters(), opt.slow_weights[0]))
    return round(moved, 4), round(slow_gap, 4)


if __name__ == "__main__":
    for cls in (Lookahead, LookaheadCloned, LookaheadState):
        print(cls.__name__, run(cls))
