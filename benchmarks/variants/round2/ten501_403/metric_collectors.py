"""torchmetrics-like collectors written by hand, and a dataclass tracker."""
from dataclasses import dataclass, field
from typing import List

import torch
import torch.nn as nn
import torch.nn.functional as F


class Metric:
    def reset(self):
        raise NotImplementedError


class MeanMetric(Metric):
    def __init__(self):
        self.reset()

    def reset(self):
        self.total = torch.tensor(0.0)
        self.weight = 0

    def update(self, value, weight=1):
        self.total = self.total + value * weight
        self.weight += weight

    def compute(self):
        return self.total / max(self.weight, 1)


class CatMetric(Metric):
    def __init__(self):
        self.preds: List[torch.Tensor] = []
        self.target: List[torch.Tensor] = []

    def reset(self):
        self.preds, self.target = [], []

    def update(self, preds, target):
        self.preds.append(preds)
        self.target.append(target)

    def compute(self):
        return torch.cat(self.preds), torch.cat(self.target)


class DetachedMean(Metric):
    def __init__(self):
        self.sum, self.n = 0.0, 0

    def reset(self):
        self.sum, self.n = 0.0, 0

    def update(self, value):
        self.sum += value.detach()
        self.n += 1


@dataclass
class EpochStats:
    losses: List[torch.Tensor] = field(default_factory=list)
    grad_norms: List[float] = field(default_factory=list)

    def add(self, loss, grad_norm):
        self.losses.append(loss)
        self.grad_norms.append(grad_norm)

    def mean_loss(self):
        return torch.stack(self.losses).mean()


def train(epochs=2, steps=4):
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_metric = MeanMetric()
    pred_metric = CatMetric()
    safe_metric = DetachedMean()
    history = []
    for epoch in range(epochs):
        stats = EpochStats()
        for step in range(steps):
            x, y = torch.randn(8, 6), torch.randint(0, 3, (8,))
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            gn = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            loss_metric.update(loss, weight=x.size(0))  # expect: TEN501
            pred_metric.update(preds=logits.softmax(-1), target=y)  # expect: TEN501
            safe_metric.update(loss)  # ok
            stats.add(loss, gn.item())  # expect: TEN501
        history.append(stats.mean_loss().item())  # ok
    return loss_metric, pred_metric, stats


if __name__ == "__main__":
    torch.manual_seed(0)
    lm, pm, st = train()
    print("MeanMetric total:", lm.total.grad_fn, "CatMetric preds:", pm.preds[0].grad_fn, "stats:", st.losses[0].grad_fn)
