from collections import defaultdict


class MetricTracker:
    """Keeps weighted sums per key; `result()` gives the averages."""

    def __init__(self, *keys):
        self._sum = defaultdict(float)
        self._n = defaultdict(int)
        self.keys = keys

    def update(self, key, value, n=1):
        self._sum[key] += value * n
        self._n[key] += n

    def avg(self, key):
        return self._sum[key] / max(self._n[key], 1)

    def result(self):
        return {k: float(self.avg(k)) for k in self._sum}


class ScalarTracker(MetricTracker):
    """Same API, but converts incoming tensors to python numbers itself."""

    def update(self, key, value, n=1):
        if hasattr(value, "item"):
            value = value.item()
        super().update(key, value, n)
