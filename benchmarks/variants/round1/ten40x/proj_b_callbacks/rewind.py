"""Callbacks that rewind the model to its best snapshot."""
from base import BestSnapshot


class RestoreBestOnEnd(BestSnapshot):
    def on_train_end(self, trainer):
        if self.snapshot is not None:
            trainer.model.load_state_dict(self.snapshot)


class RewindOnDivergence(BestSnapshot):
    def __init__(self, factor=3.0):
        super().__init__()
        self.factor = factor

    def on_epoch_end(self, trainer, metrics):
        if self.snapshot is not None and metrics["val_loss"] > self.factor * self.best:
            trainer.model.load_state_dict(self.snapshot)
            for g in trainer.optimizer.param_groups:
                g["lr"] *= 0.1
        super().on_epoch_end(trainer, metrics)
