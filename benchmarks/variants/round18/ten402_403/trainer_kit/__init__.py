"""A miniature training toolkit: callbacks, lag features and helpers."""
from . import callbacks, features, utils

__all__ = ["callbacks", "features", "utils"]
