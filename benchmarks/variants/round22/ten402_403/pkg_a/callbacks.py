"""Callbacks that keep snapshots between calls."""
import torch

from . import snapshots


class BestWeights:
    def __init__(self):
        self.best = None
        self.best_loss = float("inf")
        self.best_epoch = -1

    def on_epoch_end(self, epoch, model, val_loss):
        if val_loss < self.best_loss:
            self.best_loss, self.best_epoch = val_loss, epoch
            self.best = snapshots.take_state(model)  # either: TEN402

    def on_train_end(self, model):
        model.load_state_dict(self.best)


class EMAEvaluation:
    """Evaluate with EMA weights, then put the raw training weights back."""

    def __init__(self, ema):
        self.ema = ema

    def evaluate(self, model, fn):
        stash = snapshots.take_params(model)  # either: TEN402
        self.ema.apply_to(model)
        with torch.no_grad():
            result = fn(model)
        snapshots.put_params(model, stash)
        return result
