"""Snapshot helpers shared by the callbacks."""
import copy
import io

import torch


def capture(model):
    return model.state_dict()  # expect: TEN402


def capture_params(model):
    return [p.detach() for p in model.parameters()]  # expect: TEN402


def capture_safe(model):
    return copy.deepcopy(model.state_dict())  # ok


def capture_params_safe(model):
    return [p.detach().clone() for p in model.parameters()]  # ok


def to_bytes(model):
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)  # ok
    return buf.getvalue()


def from_bytes(blob):
    return torch.load(io.BytesIO(blob))
