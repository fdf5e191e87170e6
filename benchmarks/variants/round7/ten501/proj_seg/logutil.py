import json
import os
from collections import defaultdict

import torch

_HISTORY = defaultdict(list)
_RUNNING = defaultdict(float)
_COUNTS = defaultdict(int)
_WRITER = None


def init(log_dir):
    global _WRITER
    os.makedirs(log_dir, exist_ok=True)
    try:
        from torch.utils.tensorboard import SummaryWriter
        _WRITER = SummaryWriter(log_dir)
    except ImportError:
        _WRITER = None


def log_metric(name, value, step):
    _HISTORY[name].append((step, value))  # expect: TEN501
    if _WRITER is not None:
        _WRITER.add_scalar(name, float(value), step)


def accumulate(name, value, n=1):
    if torch.is_tensor(value):
        value = value.detach().item()
    _RUNNING[name] += value * n  # ok
    _COUNTS[name] += n


def flush_running(step):
    out = {}
    for name in list(_RUNNING):
        out[name] = _RUNNING[name] / max(_COUNTS[name], 1)
        if _WRITER is not None:
            _WRITER.add_scalar(name, out[name], step)
    _RUNNING.clear()
    _COUNTS.clear()
    return out


def dump(path):
    serial = {k: [(s, float(v)) for s, v in vs] for k, vs in _HISTORY.items()}
    with open(path, "w") as f:
        json.dump(serial, f)
