"""Helpers used by the engine: a module-level scalar registry and reduction helpers."""
import torch

_REGISTRY = {}
_EPOCH_LOSSES = []


def reduce_dict(d):
    """Single-process stand-in for the distributed reduce_dict: returns the same tensors."""
    with torch.no_grad():
        names = sorted(d)
        values = torch.stack([d[k] for k in names])
    return dict(zip(names, values))


def register(name, value):
    _REGISTRY.setdefault(name, []).append(value)


def register_scalar(name, value):
    _REGISTRY.setdefault(name, []).append(float(value))


def store_epoch(store, **values):
    store.append(values)


def epoch_losses():
    return _EPOCH_LOSSES


def registry():
    return _REGISTRY
