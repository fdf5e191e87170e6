"""Callbacks that keep snapshots through the helpers in snapshots.py."""
import torch

from . import snapshots


class Callback:
    def on_epoch_end(self, trainer, epoch, val_loss):
        pass

    def on_fit_end(self, trainer):
        pass


class BestCheckpoint(Callback):
    def __init__(self):
        self.best = float("inf")
        self.state = None

    def on_epoch_end(self, trainer, epoch, val_loss):
        if val_loss < self.best:
            self.best = val_loss
            self.state = snapshots.capture(trainer.model)  # either: TEN402

    def on_fit_end(self, trainer):
        trainer.model.load_state_dict(self.state)


class BestCheckpointBytes(Callback):
    def __init__(self):
        self.best = float("inf")
        self.blob = None

    def on_epoch_end(self, trainer, epoch, val_loss):
        if val_loss < self.best:
            self.best = val_loss
            self.blob = snapshots.to_bytes(trainer.model)

    def on_fit_end(self, trainer):
        trainer.model.load_state_dict(snapshots.from_bytes(self.blob))


class DriftLogger(Callback):
    def __init__(self, safe):
        self.safe = safe
        self.start = None
        self.drift = []

    def on_epoch_end(self, trainer, epoch, val_loss):
        if self.start is None:
            grab = snapshots.capture_params_safe if self.safe else snapshots.capture_params
            self.start = grab(trainer.model)  # either: TEN402
            return
        with torch.no_grad():
            self.drift.append(sum((p - s).norm().item() for p, s in zip(trainer.model.parameters(), self.start)))


class WarmStartCache(Callback):
    """Keeps the epoch-0 weights for a later warm restart."""

    def __init__(self):
        self.cache = {}

    def on_epoch_end(self, trainer, epoch, val_loss):
        if epoch == 0:
            self.cache["epoch0"] = snapshots.capture_safe(trainer.model)
