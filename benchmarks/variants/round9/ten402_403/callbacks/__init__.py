"""Training callbacks used by ``trainer.Trainer``-style loops.

A callback receives the trainer object, which exposes ``model``, ``optimizer``,
``epoch``, ``global_step`` and a writable ``should_stop`` flag.
"""
from .checkpoint import BestWeightsInMemory, ModelCheckpoint, TopKInMemory
from .early_stopping import EarlyStopping

__all__ = ["EarlyStopping", "ModelCheckpoint", "TopKInMemory", "BestWeightsInMemory"]
