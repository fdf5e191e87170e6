"""Checkpoint utilities shared by the training scripts."""
import os

import torch


class BestModelTracker:
    """Remembers the weights of the best epoch so far, keyed on a metric."""

    def __init__(self, mode="max", device="cpu"):
        assert mode in ("max", "min")
        self.mode = mode
        self.device = torch.device(device)
        self.best_metric = None
        self.best_epoch = None
        self._best_state = None

    def _improved(self, metric):
        if self.best_metric is None:
            return True
        return metric > self.best_metric if self.mode == "max" else metric < self.best_metric

    def update(self, model, metric, epoch):
        if not self._improved(metric):
            return False
        self.best_metric = metric
        self.best_epoch = epoch
        # keep an offloaded copy so GPU memory is not doubled
        self._best_state = {k: v.to(self.device) for k, v in model.state_dict().items()}  # expect: TEN402
        return True

    def restore(self, model):
        if self._best_state is None:
            raise RuntimeError("no best state recorded")
        model.load_state_dict(self._best_state)
        return self.best_epoch


def save_checkpoint(model, optimizer, epoch, directory):
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"epoch_{epoch:03d}.pt")
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, path)  # ok
    return path
