import torch

from .snapshots import capture, capture_copy


class Callback:
    def on_begin(self, trainer):
        pass

    def on_epoch(self, trainer, epoch, val_loss):
        pass


class BestKeeper(Callback):
    def __init__(self):
        self.best_loss = float("inf")
        self.best = None
        self.best_epoch = -1

    def on_epoch(self, trainer, epoch, val_loss):
        if val_loss < self.best_loss:
            self.best_loss, self.best_epoch = val_loss, epoch
            self.best = capture(trainer.model)  # either: TEN402


class InitAnchor(Callback):
    def on_begin(self, trainer):
        self.init = capture_copy(trainer.model)  # ok


class RunningAverage(Callback):
    """Keeps a float64 running mean of the weights from epoch `start` on."""

    def __init__(self, start):
        self.start = start
        self.n = 0
        self.mean = None

    def on_epoch(self, trainer, epoch, val_loss):
        if epoch < self.start:
            return
        self.n += 1
        if self.mean is None:
            self.mean = {k: v.double() for k, v in trainer.model.state_dict().items()}  # ok
        else:
            for k, v in trainer.model.state_dict().items():
                self.mean[k].add_((v.double() - self.mean[k]) / self.n)

    def as_float(self):
        return {k: v.float() for k, v in self.mean.items()}
