"""Snapshot helpers shared by the callbacks."""
import copy

import torch


def take_state(model):
    """State dict to restore later."""
    return model.state_dict()  # expect: TEN402


def take_params(model):
    """Parameter tensors, e.g. for swapping weights around evaluation."""
    return [p.detach() for p in model.parameters()]  # expect: TEN402


def take_state_copy(model):
    return copy.deepcopy(model.state_dict())  # ok


def flat_params(model):
    return torch.cat([p.detach().reshape(-1) for p in model.parameters()])  # ok


@torch.no_grad()
def put_params(model, tensors):
    for p, t in zip(model.parameters(), tensors):
        p.copy_(t)
