import copy
from typing import Dict

import torch
from torch import nn

StateDict = Dict[str, torch.Tensor]


def take_snapshot(model: nn.Module) -> StateDict:
    """Return the model weights (fast path, used for 'best so far')."""
    return model.state_dict()


def safe_snapshot(model: nn.Module) -> StateDict:
    return copy.deepcopy(model.state_dict())  # ok


def cpu_snapshot(model: nn.Module) -> StateDict:
    return {k: v.detach().to("cpu", copy=True) for k, v in model.state_dict().items()}  # ok


def restore(model: nn.Module, state: StateDict) -> None:
    missing, unexpected = model.load_state_dict(state, strict=False)
    if missing or unexpected:
        raise RuntimeError(f"state mismatch: missing={missing} unexpected={unexpected}")
