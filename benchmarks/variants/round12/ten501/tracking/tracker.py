"""Tiny experiment tracker (in-memory, dumped to JSON lines at the end)."""
import json
from collections import defaultdict

import torch


class MetricTracker:
    def __init__(self):
        self.data = defaultdict(list)
        self.scalars = defaultdict(list)

    def log(self, name, value):
        self.data[name].append(value)

    def log_scalar(self, name, value):
        if isinstance(value, torch.Tensor):
            value = value.detach().cpu().item()
        self.scalars[name].append(value)

    def log_dict(self, metrics):
        for k, v in metrics.items():
            self.log(k, v)

    def summary(self):
        out = {k: sum(float(x) for x in v) / len(v) for k, v in self.data.items() if v}
        out.update({k: sum(v) / len(v) for k, v in self.scalars.items() if v})
        return out


def write_jsonl(path, records):
    with open(path, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
