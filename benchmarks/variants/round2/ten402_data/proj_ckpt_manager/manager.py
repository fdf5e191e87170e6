"""A small checkpoint manager with save_best / restore_best."""
import io
import os

import torch


class CheckpointManager:
    def __init__(self, directory=None, mode="max"):
        self.directory = directory
        self.mode = mode
        self.best_metric = None
        self._best_model = None
        self._best_optim = None
        self.history = []

    def _better(self, metric):
        if self.best_metric is None:
            return True
        return metric > self.best_metric if self.mode == "max" else metric < self.best_metric

    def save_best(self, model, optimizer, metric):
        if self._better(metric):
            self.best_metric = metric
            self._best_model = model.state_dict()  # expect: TEN402
            self._best_optim = optimizer.state_dict()  # expect: TEN402
            return True
        return False

    def restore_best(self, model, optimizer):
        model.load_state_dict(self._best_model)
        optimizer.load_state_dict(self._best_optim)

    def save_last(self, model, epoch):
        # serialised at once: fine
        if self.directory:
            torch.save(model.state_dict(), os.path.join(self.directory, f"last_{epoch}.pt"))  # ok
        buf = io.BytesIO()
        torch.save(model.state_dict(), buf)  # ok
        self.history.append(buf.getvalue())


class InMemoryTopK:
    """Keeps the k best checkpoints in memory as serialised bytes."""

    def __init__(self, k=2):
        self.k = k
        self.entries = []

    def save_best(self, model, metric):
        buf = io.BytesIO()
        state = model.state_dict()  # ok
        torch.save(state, buf)
        self.entries.append((metric, buf.getvalue()))
        self.entries.sort(key=lambda e: -e[0])
        del self.entries[self.k:]

    def load_best(self, model):
        _, blob = self.entries[0]
        model.load_state_dict(torch.load(io.BytesIO(blob)))


class CloningManager(CheckpointManager):
    def save_best(self, model, optimizer, metric):
        if self._better(metric):
            self.best_metric = metric
            self._best_model = {k: t.detach().clone() for k, t in model.state_dict().items()}  # ok
            self._best_optim = None
            return True
        return False

    def restore_best(self, model, optimizer):
        model.load_state_dict(self._best_model)
