class MetricTracker:
    def __init__(self, *keys):
        self.totals = {k: 0.0 for k in keys}
        self.counts = {k: 0 for k in keys}

    def update(self, key, value, n=1):
        self.totals[key] += value * n
        self.counts[key] += n

    def avg(self, key):
        return float(self.totals[key]) / max(self.counts[key], 1)
