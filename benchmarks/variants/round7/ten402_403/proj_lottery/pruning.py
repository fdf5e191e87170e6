from typing import Dict

import torch
from torch import nn

PRUNABLE = (nn.Conv2d, nn.Linear)


def snapshot_weights(model: nn.Module) -> Dict[str, torch.Tensor]:
    return {name: t for name, t in model.state_dict().items() if not name.endswith("num_batches_tracked")}


def clone_weights(model: nn.Module) -> Dict[str, torch.Tensor]:
    return {name: t.detach().clone() for name, t in model.state_dict().items()}  # ok


def init_masks(model: nn.Module) -> Dict[str, torch.Tensor]:
    return {
        f"{name}.weight": torch.ones_like(m.weight, dtype=torch.bool)
        for name, m in model.named_modules()
        if isinstance(m, PRUNABLE)
    }


@torch.no_grad()
def prune_global(model: nn.Module, masks: Dict[str, torch.Tensor], rate: float) -> Dict[str, torch.Tensor]:
    sd = model.state_dict()  # ok
    alive = torch.cat([sd[k][m].abs().flatten() for k, m in masks.items()])
    n_prune = int(rate * alive.numel())
    if n_prune == 0:
        return masks
    thresh = alive.kthvalue(n_prune).values
    return {k: m & (sd[k].abs() > thresh) for k, m in masks.items()}


@torch.no_grad()
def apply_masks(model: nn.Module, masks: Dict[str, torch.Tensor]) -> None:
    sd = model.state_dict()  # ok
    for k, m in masks.items():
        sd[k].mul_(m)


def rewind(model: nn.Module, state: Dict[str, torch.Tensor], masks: Dict[str, torch.Tensor]) -> None:
    model.load_state_dict(state, strict=False)
    apply_masks(model, masks)


def sparsity(masks: Dict[str, torch.Tensor]) -> float:
    total = sum(m.numel() for m in masks.values())
    kept = sum(int(m.sum()) for m in masks.values())
    return 1.0 - kept / total
