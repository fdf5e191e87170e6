import copy
import io

import torch


def snapshot(module):
    return {k: v for k, v in module.state_dict().items()}  # either


def frozen_snapshot(module):
    return {k: v.detach().clone() for k, v in module.state_dict().items()}


def serialize(module):
    buf = io.BytesIO()
    torch.save(module.state_dict(), buf)  # ok
    return buf.getvalue()


def deserialize(blob):
    return torch.load(io.BytesIO(blob))


class OptimizerBackup:
    def __init__(self, optimizer, deep=True):
        self.optimizer = optimizer
        self.deep = deep
        self.saved = None

    def save(self):
        if self.deep:
            self.saved = copy.deepcopy(self.optimizer.state_dict())  # ok
        else:
            self.saved = self.optimizer.state_dict()  # expect: TEN402

    def restore(self):
        self.optimizer.load_state_dict(self.saved)
