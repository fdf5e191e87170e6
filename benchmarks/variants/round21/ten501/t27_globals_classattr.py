"""Module-level metric registry, class-level shared history and `global` accumulators."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

HISTORY = defaultdict(list)
BEST_LOSS = float("inf")
TOTAL_EXAMPLES = 0
LOSS_SUM = 0.0


def log_metric(name, value, step=None):
    HISTORY[name].append((step, value))


class RunStats:
    losses = []          # shared by every instance (class attribute)
    n_updates = 0

    def record(self, loss):
        self.losses.append(loss)
        type(self).n_updates += 1


class LayerStats:
    registry = {}

    @classmethod
    def register(cls, name, value):
        cls.registry.setdefault(name, []).append(value)


def train_epoch(model, opt, scheduler, x, y, epoch):
    global BEST_LOSS, TOTAL_EXAMPLES, LOSS_SUM
    stats = RunStats()
    for step in range(0, len(x), 25):
        xb, yb = x[step:step + 25], y[step:step + 25]
        logits = model(xb)
        loss = F.cross_entropy(logits, yb)
        acc = (logits.argmax(1) == yb).float().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        global_step = epoch * len(x) + step

        log_metric("train/loss", loss, global_step)  # expect: TEN501
        log_metric("train/lr", scheduler.get_last_lr()[0], global_step)  # ok
        log_metric("train/acc", acc, global_step)  # ok
        RunStats.losses.append(loss)  # expect: TEN501
        stats.record(loss.item())  # ok
        LayerStats.register("fc_out_mean", logits.mean(0))  # expect: TEN501
        LayerStats.register("fc_weight_norm", model[-1].weight.norm().item())  # ok
        BEST_LOSS = min(BEST_LOSS, loss.item())  # ok
        TOTAL_EXAMPLES += xb.size(0)
        LOSS_SUM = LOSS_SUM + loss * xb.size(0)  # expect: TEN501
    scheduler.step()


x = torch.randn(200, 7)
y = (x[:, 0] > x[:, 1]).long() + (x[:, 2] > 1).long()
model = nn.Sequential(nn.Linear(7, 32), nn.ReLU(), nn.Linear(32, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.2)
scheduler = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.7)
for epoch in range(3):
    train_epoch(model, opt, scheduler, x, y, epoch)

print("logged loss points:", len(HISTORY["train/loss"]), "last:", HISTORY["train/loss"][-1][1].item())
print("lrs:", sorted({round(v, 4) for _, v in HISTORY["train/lr"]}), "acc last:", HISTORY["train/acc"][-1][1].item())
print("class-attr history:", len(RunStats.losses), "updates:", RunStats.n_updates,
      "out mean:", torch.stack(LayerStats.registry["fc_out_mean"]).mean().item())
print("best:", BEST_LOSS, "mean loss:", (LOSS_SUM / TOTAL_EXAMPLES).item())
