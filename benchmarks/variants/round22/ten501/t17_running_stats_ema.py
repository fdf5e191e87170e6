"""Hand-rolled running statistics and an EMA copy of the weights."""
import copy

import torch
from torch import nn


class FeatureNorm(nn.Module):
    """Normalises features with running statistics it keeps itself."""

    def __init__(self, dim, momentum=0.1):
        super().__init__()
        self.m = momentum
        self.register_buffer("running_mean", torch.zeros(dim))
        self.register_buffer("running_var", torch.ones(dim))
        self.register_buffer("num_batches_tracked", torch.tensor(0))

    def forward(self, x):
        if self.training:
            mean, var = x.mean(0), x.var(0, unbiased=False)
            self.running_mean = (1 - self.m) * self.running_mean + self.m * mean  # expect: TEN501
            with torch.no_grad():
                self.running_var.mul_(1 - self.m).add_(self.m * var)  # ok
            self.num_batches_tracked += 1  # ok
        else:
            mean, var = self.running_mean, self.running_var
        return (x - mean) / torch.sqrt(var + 1e-5)


class FeatureNormFixed(FeatureNorm):
    def forward(self, x):
        if self.training:
            mean, var = x.mean(0), x.var(0, unbiased=False)
            self.running_mean = (1 - self.m) * self.running_mean + self.m * mean.detach()  # ok
            self.running_var = (1 - self.m) * self.running_var + self.m * var.detach()  # ok
        else:
            mean, var = self.running_mean, self.running_var
        return (x - mean) / torch.sqrt(var + 1e-5)


def ema_update(ema_model, model, decay=0.9):
    for e, p in zip(ema_model.parameters(), model.parameters()):
        e.mul_(decay).add_(p * (1 - decay))  # expect: TEN501


@torch.no_grad()
def ema_update_safe(ema_model, model, decay=0.9):
    for e, p in zip(ema_model.parameters(), model.parameters()):
        e.mul_(decay).add_(p, alpha=1 - decay)  # ok


def build(norm_cls):
    return nn.Sequential(nn.Linear(5, 10), norm_cls(10), nn.ReLU(), nn.Linear(10, 1))


def train(norm_cls, ema_fn):
    torch.manual_seed(0)
    model = build(norm_cls)
    ema = copy.deepcopy(model)
    for p in ema.parameters():
        p.requires_grad_(False)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for _ in range(6):
        x = torch.randn(16, 5)
        y = x[:, :1] - x[:, 1:2]
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema_fn(ema, model)
    return model, ema


if __name__ == "__main__":
    m1, e1 = train(FeatureNorm, ema_update)
    m2, e2 = train(FeatureNormFixed, ema_update_safe)
    print(m1[1].running_mean.grad_fn is not None, next(e1.parameters()).grad_fn is not None)
    print(m2[1].running_mean.grad_fn, next(e2.parameters()).grad_fn, int(m1[1].num_batches_tracked))
