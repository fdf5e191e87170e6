"""Exponential-moving-average utilities for diffusion / self-supervised training."""
from .shadow import ClonedEMA, ShadowEMA, trainable_params

__all__ = ["ShadowEMA", "ClonedEMA", "trainable_params"]
