"""Small helpers for keeping model weights around during training."""
import torch


def capture_weights(model):
    """Return the model's weights keyed by parameter/buffer name."""
    return {name: t.detach() for name, t in model.state_dict().items()}


def clone_weights(model, device="cpu"):
    """Return an independent copy of the model's weights on `device`."""
    return {name: t.detach().to(device, copy=True) for name, t in model.state_dict().items()}  # ok


def load_weights(model, weights, strict=True):
    missing, extra = model.load_state_dict(weights, strict=strict)
    if missing or extra:
        print(f"load_weights: missing={missing} extra={extra}")
    return model
