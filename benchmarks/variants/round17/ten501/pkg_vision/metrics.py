"""Meters modelled on the torchvision reference scripts."""
from collections import defaultdict, deque

import torch


class SmoothedValue:
    """Tracks a window of values plus the global average."""

    def __init__(self, window_size=5):
        self.deque = deque(maxlen=window_size)
        self.total = 0.0
        self.count = 0

    def update(self, value, n=1):
        self.deque.append(value)
        self.count += n
        self.total += value * n

    @property
    def global_avg(self):
        return float(self.total) / max(self.count, 1)


class MetricLogger:
    """Converts tensors to python numbers before storing them."""

    def __init__(self):
        self.meters = defaultdict(SmoothedValue)

    def update(self, **kwargs):
        for k, v in kwargs.items():
            if isinstance(v, torch.Tensor):
                v = v.item()
            self.meters[k].update(v)

    def __str__(self):
        return "  ".join(f"{k}: {m.global_avg:.4f}" for k, m in self.meters.items())


class MetricTracker:
    """Keeps every value it is given, per name."""

    def __init__(self):
        self.data = defaultdict(list)

    def update(self, name, value):
        self.data[name].append(value)

    def mean(self, name):
        vals = self.data[name]
        return sum(float(v) for v in vals) / max(len(vals), 1)
