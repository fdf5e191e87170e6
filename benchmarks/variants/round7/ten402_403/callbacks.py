import copy
import math
import os

import torch


class Callback:
    def on_train_begin(self, trainer):
        pass

    def on_epoch_end(self, trainer, epoch, logs):
        pass

    def on_train_end(self, trainer):
        pass


class RestoreBestWeights(Callback):
    def __init__(self, monitor="val_loss", mode="min", verbose=True):
        self.monitor = monitor
        self.mode = mode
        self.verbose = verbose
        self.best = None
        self.best_epoch = None
        self.best_weights = None

    def on_train_begin(self, trainer):
        self.best = math.inf if self.mode == "min" else -math.inf
        self.best_epoch = None
        self.best_weights = None

    def _improved(self, value):
        return value < self.best if self.mode == "min" else value > self.best

    def on_epoch_end(self, trainer, epoch, logs):
        value = logs.get(self.monitor)
        if value is None:
            return
        if self._improved(value):
            self.best = value
            self.best_epoch = epoch
            sd = trainer.model.state_dict()
            self.best_weights = copy.copy(sd)  # expect: TEN402

    def on_train_end(self, trainer):
        if self.best_weights is None:
            return
        if self.verbose:
            print(f"Restoring model weights from the end of the best epoch ({self.best_epoch}).")
        trainer.model.load_state_dict(self.best_weights)


class ModelCheckpoint(Callback):
    def __init__(self, dirpath, monitor="val_loss", every_n_epochs=1):
        self.dirpath = dirpath
        self.monitor = monitor
        self.every_n_epochs = every_n_epochs
        os.makedirs(dirpath, exist_ok=True)

    def on_epoch_end(self, trainer, epoch, logs):
        if (epoch + 1) % self.every_n_epochs:
            return
        path = os.path.join(self.dirpath, f"epoch{epoch:03d}-{self.monitor}={logs.get(self.monitor, float('nan')):.4f}.pt")
        torch.save(trainer.model.state_dict(), path)  # ok


class RollbackOnNaN(Callback):
    """If the loss blows up, go back to the last finite weights and halve the learning rate."""

    def __init__(self, factor=0.5):
        self.factor = factor
        self._good = None

    def on_train_begin(self, trainer):
        self._good = copy.deepcopy(trainer.model.state_dict())  # ok

    def on_epoch_end(self, trainer, epoch, logs):
        loss = logs.get("loss", 0.0)
        if not math.isfinite(loss):
            trainer.model.load_state_dict(self._good)
            for g in trainer.optimizer.param_groups:
                g["lr"] *= self.factor
            print(f"non-finite loss at epoch {epoch}, rolled back; lr -> {trainer.optimizer.param_groups[0]['lr']:.2e}")
        else:
            self._good = {k: t.detach().clone() for k, t in trainer.model.state_dict().items()}  # ok
