import copy

import numpy as np
import torch


def get_weights(model):
    return dict(model.state_dict())


def set_weights(model, weights):
    model.load_state_dict(weights)


def get_checkpoint(model, optimizer):
    return {"model": copy.deepcopy(model.state_dict()), "optimizer": copy.deepcopy(optimizer.state_dict())}  # ok


def save_checkpoint(model, optimizer, path):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, path)  # ok


def perturb(hparams, rng: np.random.RandomState, factors=(0.8, 1.2)):
    out = {}
    for k, v in hparams.items():
        if isinstance(v, float):
            out[k] = v * float(rng.choice(factors))
        else:
            out[k] = v
    return out
