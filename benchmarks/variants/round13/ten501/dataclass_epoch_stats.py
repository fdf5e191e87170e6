"""Epoch statistics collected into dataclasses, one object per epoch."""
from dataclasses import dataclass, field, asdict

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class EpochStats:
    epoch: int
    losses: list = field(default_factory=list)
    margins: list = field(default_factory=list)
    grad_norms: list = field(default_factory=list)
    total: float = 0.0
    n: int = 0

    def add(self, loss, n):
        self.losses.append(loss.detach().cpu())
        self.total += loss.item() * n
        self.n += n

    @property
    def mean(self):
        return self.total / max(1, self.n)


@dataclass
class RunSummary:
    epochs: list = field(default_factory=list)
    best_epoch: int = -1
    best_loss: float = float("inf")


def hinge_margin(logits, y):
    correct = logits.gather(1, y[:, None]).squeeze(1)
    other = logits.masked_fill(F.one_hot(y, logits.size(1)).bool(), float("-inf")).max(1).values
    return correct - other


def main(epochs=3):
    torch.manual_seed(0)
    data = [(torch.randn(10, 7), torch.randint(0, 4, (10,))) for _ in range(3)]
    model = nn.Sequential(nn.Linear(7, 14), nn.ReLU(), nn.Linear(14, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    run = RunSummary()
    for epoch in range(epochs):
        stats = EpochStats(epoch)
        for x, y in data:
            logits = model(x)
            margin = hinge_margin(logits, y)
            loss = F.relu(1 - margin).mean()
            opt.zero_grad()
            loss.backward()
            gn = nn.utils.clip_grad_norm_(model.parameters(), 2.0)
            opt.step()
            stats.add(loss, len(y))  # ok
            stats.margins.append(margin.detach().min())  # ok
            stats.grad_norms.append(gn)  # ok
        run.epochs.append(stats)  # ok
        if stats.mean < run.best_loss:
            run.best_loss, run.best_epoch = stats.mean, epoch  # ok
    print(asdict(run)["best_epoch"], round(run.best_loss, 4))
    return run


if __name__ == "__main__":
    main()
