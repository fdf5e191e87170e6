"""Small helpers for saving and restoring model weights during training."""
import copy

import torch


def capture_state(model):
    """Return the model's current weights so they can be restored later."""
    return dict(model.state_dict())


def capture_state_copy(model):
    """Like capture_state, but detached from the live parameters."""
    return copy.deepcopy(model.state_dict())


def restore_state(model, state):
    missing, unexpected = model.load_state_dict(state, strict=False)
    if missing or unexpected:
        raise KeyError(f"state mismatch: missing={missing} unexpected={unexpected}")


def save_state(model, path):
    torch.save(model.state_dict(), path)  # ok
