"""Iterative magnitude pruning with learning-rate rewinding / weight rewinding."""
from .masks import apply_masks, global_magnitude_masks, sparsity
from .rewind import frozen_copy, restore, rewind_point

__all__ = ["apply_masks", "global_magnitude_masks", "sparsity", "frozen_copy", "restore", "rewind_point"]
