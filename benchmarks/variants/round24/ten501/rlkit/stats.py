"""Global statistics registry used by agents (like a tiny logger.record in SB3)."""
from collections import defaultdict

_STATS = defaultdict(list)
_RUNNING = {}


def record(key, value):
    _STATS[key].append(value)


def running_mean(key, value, momentum=0.9):
    prev = _RUNNING.get(key)
    _RUNNING[key] = value if prev is None else momentum * prev + (1 - momentum) * value


def dump():
    return {k: len(v) for k, v in _STATS.items()}, dict(_RUNNING)
