"""Sequence regression with a dict of loss terms sent to two different loggers."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

WEIGHTS = {"mse": 1.0, "l1": 0.5, "smooth": 0.1}


def compute_losses(pred, target, weights=WEIGHTS):
    mse = F.mse_loss(pred, target)
    l1 = F.l1_loss(pred, target)
    smooth = (pred[:, 1:] - pred[:, :-1]).pow(2).mean()
    total = weights["mse"] * mse + weights["l1"] * l1 + weights["smooth"] * smooth
    return {"total": total, "mse": mse, "l1": l1, "smooth": smooth}


class MetricLogger:
    def __init__(self, name):
        self.name = name
        self.records = defaultdict(list)

    def log(self, values, step=None):
        for key, value in values.items():
            self.records[key].append(value)

    def summary(self):
        return {k: round(float(sum(v) / len(v)), 4) for k, v in self.records.items()}


class ScalarLogger(MetricLogger):
    """Same interface, but stores plain floats."""

    def log(self, values, step=None):
        super().log({k: float(v) for k, v in values.items()}, step)


class Smoother(nn.Module):
    def __init__(self, length=24):
        super().__init__()
        self.conv = nn.Conv1d(1, 8, 5, padding=2)
        self.out = nn.Conv1d(8, 1, 3, padding=1)

    def forward(self, x):
        return self.out(torch.relu(self.conv(x.unsqueeze(1)))).squeeze(1)


def batches(n, length=24, bs=16):
    t = torch.linspace(0, 6.28, length)
    for _ in range(n):
        phase = torch.rand(bs, 1) * 6.28
        clean = torch.sin(t + phase)
        yield clean + 0.3 * torch.randn_like(clean), clean


def main():
    model = Smoother()
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    train_log = MetricLogger("train")
    scalar_log = ScalarLogger("train-scalars")
    val_log = MetricLogger("val")

    for step, (noisy, clean) in enumerate(batches(12)):
        losses = compute_losses(model(noisy), clean)
        opt.zero_grad()
        losses["total"].backward()
        opt.step()
        train_log.log(losses, step=step)  # expect: TEN501
        scalar_log.log(losses, step=step)  # ok

        if step % 4 == 3:
            noisy_v, clean_v = next(batches(1))
            val_losses = compute_losses(model(noisy_v), clean_v)
            val_log.log({k: v.item() for k, v in val_losses.items()}, step=step)  # ok

    print("train", scalar_log.summary())
    print("val", val_log.summary())


if __name__ == "__main__":
    main()
