"""Episode / update logger."""
from collections import defaultdict


class EpochLogger:
    def __init__(self):
        self.epoch_dict = defaultdict(list)

    def store(self, **kwargs):
        for k, v in kwargs.items():
            self.epoch_dict[k].append(v)

    def mean(self, key):
        vals = self.epoch_dict[key]
        return sum(float(v) for v in vals) / len(vals)
