import os

import torch


def snapshot(model):
    return {name: t.detach().cpu() for name, t in model.state_dict().items()}


def restore(model, snap):
    model.load_state_dict(snap)


def save(model, path):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    torch.save(model.state_dict(), path)  # ok
