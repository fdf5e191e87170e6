"""Process-wide registry of named reference states (init, warmup end, ...)."""
import torch

_REG = {}


def register(name, model):
    _REG[name] = model.state_dict()  # expect: TEN402


def register_copy(name, model):
    _REG[name] = {k: v.clone() for k, v in model.state_dict().items()}  # ok


def distance(name, model):
    ref = _REG[name]
    with torch.no_grad():
        return sum((v - ref[k]).float().norm() ** 2 for k, v in model.state_dict().items()).sqrt().item()
