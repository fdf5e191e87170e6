class RunningStats:
    def __init__(self):
        self.values = []
        self.total = 0.0

    def push(self, x):
        self.values.append(x)
        self.total += x

    @property
    def mean(self):
        return float(self.total) / max(1, len(self.values))


EPISODE_LOG = []
