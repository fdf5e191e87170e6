"""Metric meters used by the trainer."""
import torch


class SumMeter:
    def __init__(self):
        self.total = 0.0
        self.n = 0

    def update(self, value, n=1):
        self.total = self.total + value * n
        self.n += n

    @property
    def avg(self):
        return float(self.total) / max(self.n, 1)


class ScalarSumMeter(SumMeter):
    def update(self, value, n=1):
        super().update(value.item() if torch.is_tensor(value) else value, n)


class ConfusionMeter:
    def __init__(self, k):
        self.mat = torch.zeros(k, k, dtype=torch.long)

    def add(self, logits, target):
        pred = logits.argmax(1)
        for p, t in zip(pred.tolist(), target.tolist()):
            self.mat[t, p] += 1
