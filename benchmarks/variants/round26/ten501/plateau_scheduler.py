"""torch ReduceLROnPlateau vs a home-grown warmup+plateau scheduler."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class WarmupPlateau:
    """Linear warmup, then halve LR when the monitored value stops improving."""

    def __init__(self, optimizer, warmup=3, patience=2):
        self.opt = optimizer
        self.warmup = warmup
        self.patience = patience
        self.base_lrs = [g["lr"] for g in optimizer.param_groups]
        self.t = 0
        self.best = float("inf")
        self.wait = 0
        self.metric_history = []

    def step(self, metric):
        self.t += 1
        self.metric_history.append(metric)
        if self.t <= self.warmup:
            for g, lr in zip(self.opt.param_groups, self.base_lrs):
                g["lr"] = lr * self.t / self.warmup
            return
        if metric < self.best:
            self.best, self.wait = float(metric), 0
        else:
            self.wait += 1
            if self.wait > self.patience:
                for g in self.opt.param_groups:
                    g["lr"] *= 0.5
                self.wait = 0


x = torch.randn(48, 3)
y = (x ** 2).sum(1, keepdim=True)
for kind in ("torch", "custom", "custom_item"):
    torch.manual_seed(1)
    net = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.SGD(net.parameters(), lr=0.02)
    if kind == "torch":
        sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1)
    else:
        sched = WarmupPlateau(opt)
    for it in range(10):
        loss = nn.functional.mse_loss(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if kind == "torch":
            sched.step(loss)  # ok
        elif kind == "custom":
            sched.step(loss)  # expect: TEN501
        else:
            sched.step(loss.item())  # ok
    print(kind, round(loss.item(), 4), opt.param_groups[0]["lr"])
