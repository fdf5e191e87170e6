"""Running-average meters shared by the engine and the entry point."""


class AverageMeter:
    """Computes and stores the average and current value."""

    def __init__(self, name, fmt=":.4f"):
        self.name = name
        self.fmt = fmt
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def __str__(self):
        fmtstr = "{name} {val" + self.fmt + "} ({avg" + self.fmt + "})"
        return fmtstr.format(name=self.name, val=float(self.val), avg=float(self.avg))


class MetricTracker:
    def __init__(self, *keys):
        self._data = {k: AverageMeter(k) for k in keys}

    def update(self, key, value, n=1):
        self._data[key].update(value, n)

    def result(self):
        return {k: float(m.avg) for k, m in self._data.items()}
