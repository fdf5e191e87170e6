from .callbacks import Callback, CheckpointOnBest, LossHistory, ProgressPrinter, ValAccuracy
from .trainer import Trainer

__all__ = ["Trainer", "Callback", "LossHistory", "ProgressPrinter", "ValAccuracy", "CheckpointOnBest"]
