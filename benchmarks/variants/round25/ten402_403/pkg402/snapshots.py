"""Snapshot utilities shared by the trainers."""
import copy
from collections import OrderedDict


class SnapshotStore:
    def __init__(self):
        self._items = {}

    def put(self, key, model):
        self._items[key] = model.state_dict()  # expect: TEN402

    def put_copy(self, key, model):
        self._items[key] = copy.deepcopy(model.state_dict())  # ok

    def get(self, key):
        return self._items[key]

    def keys(self):
        return list(self._items)


def capture(model):
    return OrderedDict((k, v) for k, v in model.state_dict().items())  # expect: TEN402


def capture_frozen(model):
    return OrderedDict((k, v.detach().clone()) for k, v in model.state_dict().items())  # ok
