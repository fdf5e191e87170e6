"""Meters and history containers used by the engine."""
from collections import defaultdict


class AverageMeter:
    def __init__(self, name):
        self.name = name
        self.reset()

    def reset(self):
        self.sum, self.count, self.last = 0.0, 0, None

    def update(self, value, n=1):
        self.last = value
        self.sum = self.sum + value * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


class MetricHistory:
    """dict-of-lists history; `add(name=value, ...)` appends every keyword."""

    def __init__(self):
        self.data = defaultdict(list)

    def add(self, **values):
        for name, value in values.items():
            self.data[name].append(value)

    def last(self, name):
        return self.data[name][-1]


def make_step_recorder():
    steps = []

    def record(step, value):
        steps.append((step, value))
        return len(steps)

    record.steps = steps
    return record
