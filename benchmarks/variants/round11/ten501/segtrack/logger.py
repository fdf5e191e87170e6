import time
from collections import defaultdict


class MetricLogger:
    def __init__(self, print_every=20):
        self.records = defaultdict(list)
        self.print_every = print_every
        self._t0 = time.time()

    def log(self, step, **metrics):
        for name, value in metrics.items():
            self.records[name].append(value)
        if step % self.print_every == 0:
            parts = [f"{k}={float(v[-1]):.4f}" for k, v in self.records.items()]
            print(f"[{time.time() - self._t0:7.1f}s] step {step} " + " ".join(parts))

    def log_scalar(self, name, value):
        self.records[name].append(value.item() if hasattr(value, "item") else float(value))
