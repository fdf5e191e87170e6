"""Ways of grabbing the weights of a module."""
import copy
import io

import torch


def state_snapshot(model, prefix=""):
    """Weights of `model`, optionally restricted to keys under `prefix`."""
    return {k: v for k, v in model.state_dict().items() if k.startswith(prefix)}  # either


def trainable_snapshot(model):
    """Independent copy of the parameters that require grad."""
    return {n: p.detach().clone() for n, p in model.named_parameters() if p.requires_grad}  # ok


def frozen_copy(model):
    """A deep copy of the whole module, put in eval mode with grads disabled."""
    twin = copy.deepcopy(model)  # ok
    twin.eval()
    for p in twin.parameters():
        p.requires_grad_(False)
    return twin


def serialized_snapshot(model):
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)
    buf.seek(0)
    return torch.load(buf, weights_only=True)  # ok


def diff_norm(a, b):
    """L2 distance between two state dicts with identical keys."""
    total = 0.0
    for k in a:
        if a[k].is_floating_point():
            total += (a[k].float() - b[k].float()).pow(2).sum().item()
    return total ** 0.5
