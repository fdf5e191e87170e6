import copy
import torch


def capture(model):
    """Return the model's weights for later restoring."""
    return {k: v.detach() for k, v in model.state_dict().items()}  # expect: TEN402


def capture_safe(model):
    return {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok


def capture_optimizer(opt):
    return copy.deepcopy(opt.state_dict())  # ok


def distance(a, b):
    return sum((a[k].float() - b[k].float()).norm() ** 2 for k in a).sqrt().item()
