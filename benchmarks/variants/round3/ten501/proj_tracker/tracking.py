"""Lightweight metric bookkeeping shared by trainers and evaluators."""
import json
from collections import OrderedDict


class MetricTracker:
    def __init__(self, *keys, writer=None):
        self.writer = writer
        self.keys = list(keys)
        self.reset()

    def reset(self):
        self._totals = OrderedDict((k, 0.0) for k in self.keys)
        self._counts = OrderedDict((k, 0) for k in self.keys)
        self._last = OrderedDict((k, None) for k in self.keys)

    def update(self, key, value, n=1):
        if key not in self._totals:
            raise KeyError(f"unknown metric '{key}', known: {self.keys}")
        if self.writer is not None:
            self.writer.add_scalar(key, value)
        self._totals[key] += value * n  # expect: TEN501
        self._counts[key] += n
        self._last[key] = value

    def avg(self, key):
        return self._totals[key] / max(self._counts[key], 1)

    def last(self, key):
        return self._last[key]

    def result(self):
        return OrderedDict((k, float(self.avg(k))) for k in self.keys)

    def to_json(self, path):
        with open(path, "w") as f:
            json.dump(self.result(), f, indent=2)


class EarlyStopping:
    def __init__(self, patience=10, mode="min"):
        self.patience = patience
        self.mode = mode
        self.best = None
        self.bad_epochs = 0

    def step(self, value):
        value = float(value)
        improved = self.best is None or (value < self.best if self.mode == "min" else value > self.best)
        if improved:
            self.best = value
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
        return self.bad_epochs > self.patience
