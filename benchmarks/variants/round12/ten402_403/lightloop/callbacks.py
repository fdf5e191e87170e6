import copy
import os

import torch


class Callback:
    def on_train_begin(self, trainer):
        pass

    def on_epoch_end(self, trainer, epoch, logs):
        pass

    def on_train_end(self, trainer):
        pass


class BestWeightsRestorer(Callback):
    """Remember the weights of the epoch with the best monitored metric."""

    def __init__(self, monitor="val_loss", mode="min"):
        self.monitor = monitor
        self.mode = mode
        self._best = None
        self._best_value = None

    def _improved(self, value):
        if self._best_value is None:
            return True
        return value < self._best_value if self.mode == "min" else value > self._best_value

    def on_epoch_end(self, trainer, epoch, logs):
        value = logs[self.monitor]
        if self._improved(value):
            self._best_value = value
            self._best = trainer.model.state_dict().copy()  # expect: TEN402
            trainer.log(f"new best {self.monitor}={value:.4f} at epoch {epoch}")

    def on_train_end(self, trainer):
        if self._best is not None:
            trainer.model.load_state_dict(self._best)


class PeriodicCheckpoint(Callback):
    def __init__(self, directory, every=5, keep_last_in_memory=True):
        self.directory = directory
        self.every = every
        self.keep_last_in_memory = keep_last_in_memory
        self.last = None

    def on_epoch_end(self, trainer, epoch, logs):
        if epoch % self.every:
            return
        os.makedirs(self.directory, exist_ok=True)
        path = os.path.join(self.directory, f"epoch{epoch:03d}.pt")
        torch.save({"model": trainer.model.state_dict(), "epoch": epoch}, path)  # ok
        if self.keep_last_in_memory:
            self.last = copy.deepcopy(trainer.model.state_dict())  # ok
