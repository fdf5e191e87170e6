"""Process-wide step logging used by the trainer and by notebooks."""
from collections import defaultdict
from typing import Dict, List

_STEP_LOSSES: List = []
_SCALARS: Dict[str, List[float]] = defaultdict(list)


def log_step(loss):
    _STEP_LOSSES.append(loss)


def log_scalar(name, value):
    _SCALARS[name].append(float(value))


def last_losses(n=10):
    vals = _STEP_LOSSES[-n:]
    return sum(float(v) for v in vals) / max(len(vals), 1)


def scalar_mean(name):
    vals = _SCALARS[name]
    return sum(vals) / max(len(vals), 1)


def reset():
    _STEP_LOSSES.clear()
    _SCALARS.clear()
