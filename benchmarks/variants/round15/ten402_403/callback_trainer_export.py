"""Lightning-flavoured trainer: callbacks ask the trainer for its state through a method."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MiniTrainer:
    def __init__(self, module, callbacks=()):
        self.module = module
        self.callbacks = list(callbacks)
        self.global_step = 0
        self.optimizer = torch.optim.RMSprop(module.parameters(), lr=1e-2)

    def export_state(self):
        return {"state_dict": self.module.state_dict(), "global_step": self.global_step}  # either

    def export_state_copy(self):
        return copy.deepcopy(self.export_state())  # ok

    def fit(self, loader, epochs=5):
        for _ in range(epochs):
            for xb, yb in loader:
                self.optimizer.zero_grad()
                F.mse_loss(self.module(xb), yb).backward()
                self.optimizer.step()
                self.global_step += 1
            for cb in self.callbacks:
                cb.on_validation_end(self)
        for cb in self.callbacks:
            cb.on_fit_end(self)


class KeepFirstEpoch:
    """Keeps the state after the first epoch to compare against at the end."""

    def __init__(self):
        self.first = None
        self.first_copy = None

    def on_validation_end(self, trainer):
        if self.first is None:
            self.first = trainer.export_state()  # expect: TEN402
            self.first_copy = trainer.export_state_copy()  # ok

    def on_fit_end(self, trainer):
        now = trainer.module.state_dict()  # ok
        moved = sum((now[k] - self.first["state_dict"][k]).abs().sum().item() for k in now)
        moved_ref = sum((now[k] - self.first_copy["state_dict"][k]).abs().sum().item() for k in now)
        print("distance from epoch-1 weights: live", moved, "copied", round(moved_ref, 4))


if __name__ == "__main__":
    x, y = torch.randn(64, 4), torch.randn(64, 2)
    loader = [(x[i:i + 16], y[i:i + 16]) for i in range(0, 64, 16)]
    MiniTrainer(nn.Linear(4, 2), [KeepFirstEpoch()]).fit(loader)
