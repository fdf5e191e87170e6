"""torchvision-references-like SmoothedValue / MetricLogger, plus a naive variant."""
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
    """Converts tensors to Python numbers before storing (like torchvision's)."""

    def __init__(self):
        self.meters = defaultdict(SmoothedValue)

    def update(self, **kwargs):
        for k, v in kwargs.items():
            if isinstance(v, torch.Tensor):
                v = v.item()
            self.meters[k].update(v)


class NaiveMetricLogger(MetricLogger):
    """Same interface, but forgets to convert."""

    def update(self, **kwargs):
        for k, v in kwargs.items():
            self.meters[k].update(v)
