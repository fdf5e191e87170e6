"""Exponential moving average of a model, kept as a separate deep-copied module."""
from copy import deepcopy

import torch
from torch import nn
import torch.nn.functional as F


class ModelEma(nn.Module):
    def __init__(self, model, decay=0.99):
        super().__init__()
        self.module = deepcopy(model)  # ok
        self.module.eval()
        self.decay = decay

    @torch.no_grad()
    def _update(self, model, fn):
        msd = model.state_dict()  # ok
        for ema_v, model_v in zip(self.module.state_dict().values(), msd.values()):
            ema_v.copy_(fn(ema_v, model_v))

    def update(self, model):
        self._update(model, lambda e, m: self.decay * e + (1.0 - self.decay) * m if e.is_floating_point() else m)

    def set(self, model):
        self._update(model, lambda e, m: m)

    def forward(self, *args):
        return self.module(*args)


class SwapEma:
    """Keeps a shadow copy of the parameters and swaps it in for evaluation."""

    def __init__(self, params, decay=0.9):
        self.params = list(params)  # ok
        self.decay = decay
        self.shadow = [p.detach().clone() for p in self.params]  # ok
        self.stash = None

    @torch.no_grad()
    def update(self):
        for s, p in zip(self.shadow, self.params):
            s.lerp_(p, 1.0 - self.decay)

    @torch.no_grad()
    def store(self):
        self.stash = [p.clone() for p in self.params]  # ok

    @torch.no_grad()
    def copy_to(self):
        for s, p in zip(self.shadow, self.params):
            p.copy_(s)

    @torch.no_grad()
    def restore(self):
        for c, p in zip(self.stash, self.params):
            p.copy_(c)
        self.stash = None


def train(steps=15, seed=0):
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 1))
    ema = ModelEma(model, decay=0.8)
    swap = SwapEma(model.parameters(), decay=0.8)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(32, 4), torch.randn(32, 1)
    for _ in range(steps):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
        ema.update(model)
        swap.update()
    model.eval()
    with torch.no_grad():
        raw = F.mse_loss(model(x), y).item()
        swap.store()
        swap.copy_to()
        swapped = F.mse_loss(model(x), y).item()
        swap.restore()
        back = F.mse_loss(model(x), y).item()
        ema_loss = F.mse_loss(ema(x), y).item()
    return raw, swapped, back, ema_loss


if __name__ == "__main__":
    raw, swapped, back, ema_loss = train()
    print(f"raw={raw:.4f} swapped={swapped:.4f} restored={back:.4f} ema={ema_loss:.4f}")
