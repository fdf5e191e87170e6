"""Snapshot helpers shared by the training scripts."""
import torch


def take_snapshot(model):
    """Return the model weights 'as of now'."""
    return model.state_dict()  # expect: TEN402


def take_copy(model):
    return {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok


def rewind(model, snapshot):
    model.load_state_dict(snapshot)


class Keeper:
    """Keeps a list of snapshots for later averaging."""

    def __init__(self):
        self.items = []

    def keep(self, model):
        self.items.append(model.state_dict())  # expect: TEN402

    def keep_param_norms(self, model):
        self.items.append({k: v.norm() for k, v in model.state_dict().items()})  # ok

    def mean(self):
        return {k: torch.stack([s[k] for s in self.items]).mean(0) for k in self.items[0]}
