"""Module-level scalar registry plus a registry of named loss functions."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

_SCALARS = defaultdict(list)
LOSSES = {}


def register_loss(name):
    def deco(fn):
        LOSSES[name] = fn
        return fn
    return deco


@register_loss("mse")
def mse(pred, target):
    return F.mse_loss(pred, target)


@register_loss("huber")
def huber(pred, target):
    return F.huber_loss(pred, target, delta=0.5)


@register_loss("l1")
def l1(pred, target):
    return (pred - target).abs().mean()


def log_scalar(name, value, step=None):
    _SCALARS[name].append((step, value))


def log_scalars(step=None, **values):
    for key, value in values.items():
        log_scalar(key, value, step)


def log_scalar_safe(name, value, step=None):
    if isinstance(value, torch.Tensor):
        value = value.detach().item() if value.numel() == 1 else value.detach().cpu()
    _SCALARS[name].append((step, value))


def summary():
    out = {}
    for name, pts in _SCALARS.items():
        vals = [float(v) for _, v in pts if not isinstance(v, torch.Tensor) or v.numel() == 1]
        out[name] = sum(vals) / max(1, len(vals))
    return out


def train(loss_names=("mse", "huber"), steps=4):
    torch.manual_seed(0)
    x = torch.randn(32, 3)
    y = x[:, :1] * 2 - x[:, 1:2]
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(steps):
        pred = model(x)
        parts = {n: LOSSES[n](pred, y) for n in loss_names}
        loss = sum(parts.values())
        opt.zero_grad()
        loss.backward()
        opt.step()
        log_scalar("loss/total", loss, step)  # expect: TEN501
        log_scalars(step=step, **{f"loss/{k}": v for k, v in parts.items()})  # expect: TEN501
        log_scalar_safe("loss/total_safe", loss, step)  # ok
        log_scalar("lr", opt.param_groups[0]["lr"], step)  # ok
        log_scalar("pred_mean", pred.mean().item(), step)  # ok
        log_scalars(step=step, **{f"parts_f/{k}": v.item() for k, v in parts.items()})  # ok
    with torch.no_grad():
        log_scalar("eval/l1", LOSSES["l1"](model(x), y), steps)  # ok
    return summary()


if __name__ == "__main__":
    print(train())
