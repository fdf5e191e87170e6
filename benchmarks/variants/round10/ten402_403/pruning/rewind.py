import torch


def rewind_point(model):
    """Parameters to rewind to after each pruning round (Frankle et al., 2020)."""
    return [p.detach() for p in model.parameters()]


def frozen_copy(model):
    return [p.detach().clone() for p in model.parameters()]  # ok


@torch.no_grad()
def restore(model, params):
    for p, saved in zip(model.parameters(), params):
        p.copy_(saved)


@torch.no_grad()
def distance(model, params):
    return sum((p - q).pow(2).sum().item() for p, q in zip(model.parameters(), params)) ** 0.5
