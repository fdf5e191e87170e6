"""Module-level statistics store shared by the agent and the main loop."""
import functools
from collections import defaultdict

STATS = defaultdict(list)
_ARCHIVE = []


def record_stat(name, value):
    STATS[name].append(value)


def archive(item):
    _ARCHIVE.append(item)


def _push(store, name, value):
    store.setdefault(name, []).append(value)


EXTRA = {}
record_extra = functools.partial(_push, EXTRA)
