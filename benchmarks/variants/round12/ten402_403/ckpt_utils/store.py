"""Small helpers to save and restore model weights in memory."""
from typing import Dict

import torch
from torch import nn

StateDict = Dict[str, torch.Tensor]


def snapshot_weights(model: nn.Module) -> StateDict:
    """Return the model weights on the CPU."""
    return {k: v.cpu() for k, v in model.state_dict().items()}  # either


def snapshot_weights_copy(model: nn.Module) -> StateDict:
    """Return an independent CPU copy of the model weights."""
    return {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}  # ok


def restore_weights(model: nn.Module, snap: StateDict, strict: bool = True) -> None:
    missing, unexpected = model.load_state_dict(snap, strict=strict)
    if missing or unexpected:
        print(f"restore: missing={missing} unexpected={unexpected}")


def weights_equal(a: StateDict, b: StateDict) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
