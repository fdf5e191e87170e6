"""LR schedulers fed with validation loss: torch's ReduceLROnPlateau and a home-made warmup one."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class WarmupThenPlateau:
    def __init__(self, optimizer, warmup=2, factor=0.5, patience=1):
        self.optimizer = optimizer
        self.warmup, self.factor, self.patience = warmup, factor, patience
        self.history = []
        self.epoch = 0

    def step(self, metric):
        self.epoch += 1
        self.history.append(metric)
        if self.epoch > self.warmup and len(self.history) > self.patience:
            if min(self.history[-self.patience:]) >= min(self.history[:-self.patience]):
                for g in self.optimizer.param_groups:
                    g["lr"] *= self.factor


def run(custom):
    model = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
    custom_sched = WarmupThenPlateau(opt)
    lrs = []
    best = None
    best_ok = None
    x_val, y_val = torch.randn(16, 5), torch.randn(16, 1)
    for epoch in range(5):
        for _ in range(2):
            x, y = torch.randn(8, 5), torch.randn(8, 1)
            loss = F.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        val_loss = F.mse_loss(model(x_val), y_val)
        plateau.step(val_loss)  # ok
        if custom:
            custom_sched.step(val_loss)  # expect: TEN501
        else:
            custom_sched.step(val_loss.item())  # ok
        lrs.append(opt.param_groups[0]["lr"])  # ok
        best = val_loss if best is None else torch.minimum(best, val_loss)  # expect: TEN501
        best_ok = val_loss.detach() if best_ok is None else torch.minimum(best_ok, val_loss.detach())  # ok
    return lrs, float(best), best_ok.item()


print(run(True))
print(run(False))
