"""Helpers for handling weights across DDP-wrapped and plain models."""
import copy

import torch


def strip_prefix(state, prefix="module."):
    return {k[len(prefix):] if k.startswith(prefix) else k: v for k, v in state.items()}


def trainable_weights(model):
    return {k: v for k, v in model.state_dict().items() if "num_batches_tracked" not in k}


def frozen_copy(model):
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def magnitude_masks(model, amount=0.5):
    masks = {}
    for name, p in model.named_parameters():
        if p.dim() > 1:
            k = int(p.numel() * amount)
            thresh = p.detach().abs().flatten().kthvalue(k).values
            masks[name] = (p.detach().abs() > thresh).float()
    return masks
