"""A custom plateau scheduler fed with the training loss, next to torch's own."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class PlateauWarmup:
    def __init__(self, optimizer, warmup=3, factor=0.5, patience=2):
        self.opt = optimizer
        self.warmup = warmup
        self.factor = factor
        self.patience = patience
        self.metrics = []
        self.best = None
        self.bad = 0
        self.base = [g["lr"] for g in optimizer.param_groups]

    def step(self, metric):
        self.metrics.append(metric)
        n = len(self.metrics)
        if n <= self.warmup:
            for g, b in zip(self.opt.param_groups, self.base):
                g["lr"] = b * n / self.warmup
            return
        if self.best is None or metric < self.best:
            self.best, self.bad = metric, 0
        else:
            self.bad += 1
            if self.bad > self.patience:
                for g in self.opt.param_groups:
                    g["lr"] *= self.factor
                self.bad = 0


def fit(sched_cls_pairs, steps=10):
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    custom = PlateauWarmup(opt)
    custom_clean = PlateauWarmup(opt)
    plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=2)
    for step in range(steps):
        x = torch.randn(12, 4)
        loss = (model(x).squeeze(1) - x[:, 0]).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        custom.step(loss)  # expect: TEN501
        custom_clean.step(loss.item())  # ok
        plateau.step(loss)  # ok
    return custom, opt


c, o = fit(None)
print("lr", o.param_groups[0]["lr"], "best", round(float(c.best), 4), "n", len(c.metrics))
