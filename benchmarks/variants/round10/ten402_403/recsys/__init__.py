"""Sequential recommendation: data prep, training and checkpoint helpers."""
from .checkpointing import capture_weights, clone_weights, load_weights
from .data import SessionBatcher, shift_right

__all__ = ["capture_weights", "clone_weights", "load_weights", "SessionBatcher", "shift_right"]
