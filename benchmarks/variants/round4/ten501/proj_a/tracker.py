"""Lightweight experiment tracker (in-memory, dumps to JSON at the end)."""
import json
import time
from collections import defaultdict


class LossTracker:
    def __init__(self, run_name):
        self.run_name = run_name
        self._history = defaultdict(list)
        self._steps = defaultdict(list)
        self._t0 = time.time()

    def log(self, name, value, step=None):
        self._history[name].append(value)  # expect: TEN501
        self._steps[name].append(step if step is not None else len(self._steps[name]))  # ok

    def latest(self, name):
        vals = self._history.get(name)
        return float(vals[-1]) if vals else None

    def mean(self, name, last=None):
        vals = self._history.get(name, [])
        if last is not None:
            vals = vals[-last:]
        if not vals:
            return float("nan")
        return sum(float(v) for v in vals) / len(vals)

    def summary(self):
        return {
            "run": self.run_name,
            "elapsed_s": round(time.time() - self._t0, 2),
            "metrics": {k: self.mean(k) for k in self._history},
        }

    def dump(self, path):
        payload = {
            "summary": self.summary(),
            "history": {k: [float(v) for v in vs] for k, vs in self._history.items()},
            "steps": dict(self._steps),
        }
        with open(path, "w") as f:
            json.dump(payload, f, indent=2)
