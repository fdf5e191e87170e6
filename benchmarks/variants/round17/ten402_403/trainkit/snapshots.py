import io

import torch


def live_state(model):
    return model.state_dict()  # either


def frozen_state(model):
    return {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok


def serialized_state(model):
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)  # ok
    return buf.getvalue()


def load_serialized(model, blob):
    model.load_state_dict(torch.load(io.BytesIO(blob)))


class Checkpointer:
    def __init__(self, how):
        self.how = how
        self.store = {}

    def save(self, tag, model):
        if self.how == "live":
            self.store[tag] = live_state(model)  # expect: TEN402
        else:
            self.store[tag] = frozen_state(model)  # ok

    def restore(self, tag, model):
        model.load_state_dict(self.store[tag])
