import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.lr_scheduler import ReduceLROnPlateau

torch.manual_seed(0)


class LossAwareWarmup:
    """Custom scheduler: warm up, then decay when the mean of recent losses stops improving."""

    def __init__(self, optimizer, warmup=3, factor=0.5):
        self.optimizer = optimizer
        self.warmup = warmup
        self.factor = factor
        self.seen = []
        self.base = [g["lr"] for g in optimizer.param_groups]

    def step(self, loss):
        self.seen.append(loss)
        n = len(self.seen)
        for g, base in zip(self.optimizer.param_groups, self.base):
            if n <= self.warmup:
                g["lr"] = base * n / self.warmup
            elif n > 6 and sum(self.seen[-3:]) > sum(self.seen[-6:-3]):
                g["lr"] = g["lr"] * self.factor


def run():
    model_a, model_b = nn.Linear(3, 1), nn.Linear(3, 1)
    opt_a = torch.optim.SGD(model_a.parameters(), lr=0.1)
    opt_b = torch.optim.SGD(model_b.parameters(), lr=0.1)
    plateau = ReduceLROnPlateau(opt_a, patience=1, factor=0.5)
    custom = LossAwareWarmup(opt_b)
    for step in range(10):
        x = torch.randn(24, 3)
        y = x @ torch.tensor([[0.3], [-0.7], [1.1]])
        loss_a = F.mse_loss(model_a(x), y)
        loss_b = F.mse_loss(model_b(x), y)
        opt_a.zero_grad(); opt_b.zero_grad()
        (loss_a + loss_b).backward()
        opt_a.step(); opt_b.step()
        plateau.step(loss_a)  # ok
        custom.step(loss_b)  # expect: TEN501
        print(step, round(loss_a.item(), 4), opt_a.param_groups[0]["lr"], round(opt_b.param_groups[0]["lr"], 4))


run()
