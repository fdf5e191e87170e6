"""Fine-tuning helpers: weight snapshots and a small trainer with warm restarts."""
from .snapshots import frozen_copy, state_snapshot, trainable_snapshot
from .trainer import FineTuner

__all__ = ["FineTuner", "state_snapshot", "trainable_snapshot", "frozen_copy"]
