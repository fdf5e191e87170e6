"""Loss computed in a helper; the loop keeps a stats dict of lists."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


def compute_loss(model, batch):
    x, y = batch
    return F.mse_loss(model(x), y)


def batches(n):
    for _ in range(n):
        yield torch.randn(8, 3), torch.randn(8, 2)


def fit(model, epochs=2):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3)
    stats = defaultdict(list)
    totals = 0
    for epoch in range(epochs):
        for batch in batches(4):
            loss = compute_loss(model, batch)
            opt.zero_grad()
            loss.backward()
            opt.step()
            stats["loss"].append(loss)  # expect: TEN501
            stats["lr"].append(sched.get_last_lr()[0])  # ok
            totals = totals + loss  # expect: TEN501
        sched.step()
    return stats, totals


if __name__ == "__main__":
    s, t = fit(nn.Linear(3, 2))
    print(len(s["loss"]), float(t))
