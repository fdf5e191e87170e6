"""Process-wide metric history (module-level state)."""
from collections import defaultdict

_HISTORY = defaultdict(list)


def record(key, value):
    _HISTORY[key].append(value)


def last(key):
    return _HISTORY[key][-1]


def summary():
    return {k: len(v) for k, v in _HISTORY.items()}
