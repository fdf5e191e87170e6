import io

import torch


def get_weights(model):
    """Return the model's weights (live tensors)."""
    return model.state_dict()  # either


def cpu_weights(model):
    """'Offload' the weights to CPU (a no-op copy when the model already lives on CPU)."""
    return {k: v.cpu() for k, v in model.state_dict().items()}  # either


def clone_weights(model):
    return {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok


def serialize(model):
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)  # ok
    return buf.getvalue()


def deserialize(blob):
    return torch.load(io.BytesIO(blob))


def param_count(model):
    return sum(p.numel() for p in model.parameters())
