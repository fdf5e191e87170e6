"""Logging utilities (after torchvision's references/detection/utils.py)."""
from collections import defaultdict, deque

import torch


class SmoothedValue:
    def __init__(self, window_size=20):
        self.deque = deque(maxlen=window_size)
        self.total = 0.0
        self.count = 0

    def update(self, value, n=1):
        self.deque.append(value)
        self.count += n
        self.total += value * n

    @property
    def global_avg(self):
        return self.total / self.count


class MetricLogger:
    def __init__(self, delimiter="  "):
        self.meters = defaultdict(SmoothedValue)
        self.delimiter = delimiter

    def update(self, **kwargs):
        for k, v in kwargs.items():
            if v is None:
                continue
            if isinstance(v, torch.Tensor):
                v = v.item()
            self.meters[k].update(v)

    def __str__(self):
        return self.delimiter.join(f"{k}: {m.global_avg:.4f}" for k, m in self.meters.items())


class LossHistory:
    """Keeps the running sum of the total loss for the epoch summary."""

    def __init__(self):
        self.sum = 0.0
        self.n = 0

    def update(self, value):
        self.sum += value
        self.n += 1

    def mean(self):
        return self.sum / max(self.n, 1)
