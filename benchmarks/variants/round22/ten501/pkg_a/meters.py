"""Metric helpers shared by the training and validation code."""


class RunningAverage:
    def __init__(self):
        self.total = 0.0
        self.n = 0

    def add(self, value, n=1):
        self.total += value * n  # expect: TEN501
        self.n += n  # ok

    @property
    def mean(self):
        return self.total / max(self.n, 1)


class History:
    def __init__(self):
        self.data = {}

    def push(self, **values):
        for k, v in values.items():
            self.data.setdefault(k, []).append(v)  # expect: TEN501


class ScalarHistory(History):
    def push(self, **values):
        for k, v in values.items():
            self.data.setdefault(k, []).append(float(v))  # ok
