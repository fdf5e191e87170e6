"""A tiny callback-driven training loop."""
from .callbacks import Callback, BestWeightsRestorer, PeriodicCheckpoint
from .trainer import Trainer

__all__ = ["Callback", "BestWeightsRestorer", "PeriodicCheckpoint", "Trainer"]
