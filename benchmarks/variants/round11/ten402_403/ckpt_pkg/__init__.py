"""Tiny checkpointing helpers shared by the image-classification trainers."""
from .snapshot import restore, safe_snapshot, take_snapshot

__all__ = ["take_snapshot", "safe_snapshot", "restore"]
