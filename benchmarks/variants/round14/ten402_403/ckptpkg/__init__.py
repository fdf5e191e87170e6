"""Tiny checkpoint-helper package used by ckptpkg.main (run: python -m ckptpkg.main)."""
from .snapshots import capture, capture_safe, capture_bytes, restore_bytes

__all__ = ["capture", "capture_safe", "capture_bytes", "restore_bytes"]
