"""Bookkeeping helpers. They store whatever they are given."""
from collections import defaultdict


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, value, n=1):
        self.sum += value * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


class MetricTracker:
    def __init__(self):
        self.data = defaultdict(list)

    def update(self, key, value):
        self.data[key].append(value)

    def mean(self, key):
        vals = self.data[key]
        return sum(vals) / len(vals)


def accumulate(store, key, value):
    store[key] = store.get(key, 0.0) + value
