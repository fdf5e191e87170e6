"""Metric trackers and metric functions."""
from collections import defaultdict

import torch


class MetricTracker:
    """Running sums / counts per metric name, plus the raw values for plotting."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.sums = defaultdict(float)
        self.counts = defaultdict(int)
        self.history = defaultdict(list)

    def update(self, name, value, n=1):
        self.sums[name] += value * n
        self.counts[name] += n
        self.history[name].append(value)

    def avg(self, name):
        return self.sums[name] / max(1, self.counts[name])


class ScalarTracker(MetricTracker):
    """Same interface, but converts incoming values to Python floats first."""

    def update(self, name, value, n=1):
        value = value.item() if torch.is_tensor(value) else float(value)
        MetricTracker.update(self, name, value, n)  # ok


@torch.no_grad()
def accuracy(logits, y):
    return (logits.argmax(1) == y).float().mean()


def confusion_matrix(logits, y, num_classes):
    cm = torch.zeros(num_classes, num_classes, dtype=torch.long)
    pred = logits.argmax(1)
    for t, p in zip(y.tolist(), pred.tolist()):
        cm[t, p] += 1
    return cm
