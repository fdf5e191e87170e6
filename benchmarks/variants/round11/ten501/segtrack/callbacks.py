class Callback:
    def on_batch_end(self, trainer, loss, **extra):
        pass

    def on_epoch_end(self, trainer, epoch):
        pass


class LossCurve(Callback):
    def __init__(self):
        self.curve = []

    def on_batch_end(self, trainer, loss, **extra):
        self.curve.append(loss)


class BestCheckpoint(Callback):
    def __init__(self, path):
        self.path = path
        self.best = float("inf")
        self.epoch_sum = 0.0
        self.epoch_n = 0

    def on_batch_end(self, trainer, loss, **extra):
        self.epoch_sum += float(loss)
        self.epoch_n += 1

    def on_epoch_end(self, trainer, epoch):
        mean = self.epoch_sum / max(self.epoch_n, 1)
        if mean < self.best:
            self.best = mean
            trainer.save(self.path)
        self.epoch_sum, self.epoch_n = 0.0, 0
