"""Helpers for capturing model / optimizer state."""
import copy
import io

import torch


def live_state(module):
    return module.state_dict()  # either


def frozen_state(module):
    return {k: v.detach().clone() for k, v in module.state_dict().items()}  # ok


def optimizer_state(opt):
    return copy.deepcopy(opt.state_dict())  # ok


def to_bytes(module):
    buf = io.BytesIO()
    torch.save(module.state_dict(), buf)  # ok
    return buf.getvalue()


def from_bytes(module, blob):
    module.load_state_dict(torch.load(io.BytesIO(blob)))
