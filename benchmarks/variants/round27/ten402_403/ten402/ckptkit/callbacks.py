from .snapshot import capture, capture_safe


class BestKeeper:
    def __init__(self, mode="min"):
        self.mode = mode
        self.score = None
        self.state = None

    def _better(self, s):
        if self.score is None:
            return True
        return s < self.score if self.mode == "min" else s > self.score

    def update(self, score, model):
        if self._better(score):
            self.score = score
            self.state = capture(model)  # either: TEN402


class PeriodicKeeper:
    def __init__(self, every):
        self.every = every
        self.history = []

    def update(self, step, model):
        if step % self.every == 0:
            self.history.append((step, capture_safe(model)))  # ok
