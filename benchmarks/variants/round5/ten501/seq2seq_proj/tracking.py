"""Lightweight metric history (replacement for the wandb logger on the offline cluster)."""
from collections import defaultdict

import torch


class History:
    def __init__(self):
        self.hist = defaultdict(list)

    def log(self, terms):
        for k, v in terms.items():
            self.hist[k].append(v)

    def mean(self, key, last=None):
        vals = self.hist[key] if last is None else self.hist[key][-last:]
        return float(torch.stack([torch.as_tensor(v, dtype=torch.float32) for v in vals]).mean())
