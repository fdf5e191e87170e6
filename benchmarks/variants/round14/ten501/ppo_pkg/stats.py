"""Keyed statistics store used by the PPO learner."""
from collections import defaultdict


class StatsLogger:
    def __init__(self):
        self.data = defaultdict(list)

    def push(self, **values):
        for key, value in values.items():
            self.data[key].append(value)

    def means(self):
        return {k: sum(float(v) for v in vs) / len(vs) for k, vs in self.data.items()}
