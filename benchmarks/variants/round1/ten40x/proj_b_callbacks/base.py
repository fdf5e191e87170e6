"""Base callback classes."""
import torch


class Callback:
    def on_epoch_end(self, trainer, metrics):
        pass

    def on_train_end(self, trainer):
        pass


class BestSnapshot(Callback):
    """Remembers the weights of the epoch with the lowest validation loss."""

    monitor = "val_loss"

    def __init__(self):
        self.best = float("inf")
        self.snapshot = None

    def on_epoch_end(self, trainer, metrics):
        value = metrics[self.monitor]
        if value < self.best:
            self.best = value
            self.snapshot = trainer.model.state_dict()  # expect: TEN402


class SafeSnapshot(Callback):
    def __init__(self):
        self.best = float("inf")
        self.snapshot = None

    def on_epoch_end(self, trainer, metrics):
        if metrics["val_loss"] < self.best:
            self.best = metrics["val_loss"]
            self.snapshot = {k: v.detach().clone() for k, v in trainer.model.state_dict().items()}  # ok: TEN402

    def on_train_end(self, trainer):
        trainer.model.load_state_dict(self.snapshot)
