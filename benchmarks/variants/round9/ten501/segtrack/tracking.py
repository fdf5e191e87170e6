"""Very small scalar tracker that buffers values and flushes them to JSONL."""
import json
import os
from collections import defaultdict

_SCALARS = defaultdict(list)
_FLUSHED = defaultdict(int)


def log_scalar(name, value, step):
    _SCALARS[name].append((step, value))


def get_history(name):
    return [(s, float(v)) for s, v in _SCALARS[name]]


def flush(path):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "a") as fh:
        for name, values in _SCALARS.items():
            for step, value in values[_FLUSHED[name]:]:
                fh.write(json.dumps({"tag": name, "step": step, "value": float(value)}) + "\n")
            _FLUSHED[name] = len(values)
