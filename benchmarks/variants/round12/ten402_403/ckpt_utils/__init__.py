from .store import snapshot_weights, snapshot_weights_copy, restore_weights

__all__ = ["snapshot_weights", "snapshot_weights_copy", "restore_weights"]
