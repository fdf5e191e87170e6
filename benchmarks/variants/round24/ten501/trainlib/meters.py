"""Meters shared by the training engine."""


class AverageMeter:
    def __init__(self):
        self.sum = 0.0
        self.count = 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


class EpochTracker:
    def __init__(self):
        self.epochs = {}

    def add_epoch(self, epoch, value):
        self.epochs[epoch] = value


def build_meters(names):
    return {n: AverageMeter() for n in names}
