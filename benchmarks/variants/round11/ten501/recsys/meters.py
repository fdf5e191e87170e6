class AverageMeter:
    """Keeps a running sum; callers decide what to put in it."""

    def __init__(self, name):
        self.name = name
        self.reset()

    def reset(self):
        self.sum = 0.0
        self.count = 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)

    def __str__(self):
        return f"{self.name}: {float(self.avg):.4f}"


class StatBank:
    """Stores plain python numbers only."""

    def __init__(self):
        self.values = {}

    def add(self, key, value):
        self.values.setdefault(key, []).append(float(value))

    def mean(self, key):
        xs = self.values.get(key, [])
        return sum(xs) / len(xs) if xs else float("nan")
