"""Callbacks for the minimal training loop in train.py."""
import copy
import math
import os

import torch


class Callback:
    def on_train_start(self, trainer):
        pass

    def on_epoch_end(self, trainer, epoch, logs):
        pass

    def on_train_end(self, trainer):
        pass


class ModelCheckpoint(Callback):
    """Writes the best model to disk as soon as the monitored metric improves."""

    def __init__(self, dirpath, monitor="val_loss", mode="min"):
        self.dirpath = dirpath
        self.monitor = monitor
        self.mode = mode
        self.best = math.inf if mode == "min" else -math.inf
        self.best_path = None

    def _improved(self, value):
        return value < self.best if self.mode == "min" else value > self.best

    def on_epoch_end(self, trainer, epoch, logs):
        value = logs[self.monitor]
        if self._improved(value):
            self.best = value
            os.makedirs(self.dirpath, exist_ok=True)
            self.best_path = os.path.join(self.dirpath, f"epoch={epoch}-{self.monitor}={value:.4f}.pt")
            torch.save(trainer.model.state_dict(), self.best_path)


class RestoreBestWeights(Callback):
    """Keeps the best weights in memory so the caller can restore them after fit()."""

    def __init__(self, monitor="val_loss", mode="min", patience=None):
        self.monitor = monitor
        self.mode = mode
        self.patience = patience
        self.best = math.inf if mode == "min" else -math.inf
        self.best_epoch = -1
        self.best_weights = None
        self.wait = 0

    def on_epoch_end(self, trainer, epoch, logs):
        value = logs[self.monitor]
        better = value < self.best if self.mode == "min" else value > self.best
        if better:
            self.best, self.best_epoch, self.wait = value, epoch, 0
            self.best_weights = copy.copy(trainer.model.state_dict())  # expect: TEN402
        else:
            self.wait += 1
            if self.patience is not None and self.wait >= self.patience:
                trainer.should_stop = True


class LRLogger(Callback):
    def on_epoch_end(self, trainer, epoch, logs):
        logs["lr"] = trainer.optimizer.param_groups[0]["lr"]
