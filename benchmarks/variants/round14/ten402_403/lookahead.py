"""Lookahead wrapper (k fast steps, then interpolate toward slow weights)."""
import torch
from torch import nn
from torch.optim import Optimizer


class Lookahead:
    def __init__(self, inner: Optimizer, k=5, alpha=0.5):
        self.inner = inner
        self.k = k
        self.alpha = alpha
        self.counter = 0
        self.slow = []
        for group in inner.param_groups:
            self.slow.append([p.detach() for p in group["params"]])  # expect: TEN402

    def zero_grad(self):
        self.inner.zero_grad()

    @torch.no_grad()
    def step(self):
        self.inner.step()
        self.counter += 1
        if self.counter % self.k:
            return
        for group, slow_group in zip(self.inner.param_groups, self.slow):
            for fast, slow in zip(group["params"], slow_group):
                slow.add_(fast - slow, alpha=self.alpha)
                fast.copy_(slow)


class LookaheadCloned(Lookahead):
    def __init__(self, inner, k=5, alpha=0.5):
        super().__init__(inner, k, alpha)
        self.slow = [[p.detach().clone() for p in g["params"]] for g in inner.param_groups]  # ok


class LookaheadState(Lookahead):
    """Keeps the slow copy inside the optimizer state dict instead."""

    def __init__(self, inner, k=5, alpha=0.5):
        super().__init__(inner, k, alpha)
        for group in inner.param_groups:
            for p in group["params"]:
                inner.state[p]["slow"] = torch.empty_like(p).copy_(p)  # ok
        self.slow = [[inner.state[p]["slow"] for p in g["params"]] for g in inner.param_groups]  # ok


def train(wrapper_cls):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = wrapper_cls(torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9), k=4, alpha=0.5)
    x = torch.randn(100, 3)
    y = (x ** 2).sum(1, keepdim=True)
    losses = []
    for step in range(24):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    gap = sum((s - p.detach()).abs().sum().item() for s, p in zip(opt.slow[0], model.parameters()))
    print(f"{wrapper_cls.__name__}: loss {losses[0]:.3f} -> {losses[-1]:.3f}, slow/fast gap {gap:.4f}")


if __name__ == "__main__":
    train(Lookahead)
    train(LookaheadCloned)
    train(LookaheadState)
