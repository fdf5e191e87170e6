import copy

import torch


def state_of(model):
    return model.state_dict()  # either


def frozen_copy(model):
    return {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok


def deep_state(model):
    return copy.deepcopy(model.state_dict())  # ok


def distance(a, b):
    return sum((a[k].float() - b[k].float()).norm().item() for k in a)
