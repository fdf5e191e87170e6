"""Helpers to grab model weights for host-side bookkeeping."""
import io

import torch


def capture(model):
    """Move weights to host memory (cheap when the model lives on the GPU)."""
    return {k: v.cpu() for k, v in model.state_dict().items()}  # either


def capture_safe(model):
    return {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}  # ok


def capture_bytes(model):
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)  # ok
    return buf.getvalue()


def restore_bytes(model, raw):
    model.load_state_dict(torch.load(io.BytesIO(raw), map_location="cpu"))


def weight_distance(a, b):
    return sum((a[k].float() - b[k].float()).norm().item() for k in a)
