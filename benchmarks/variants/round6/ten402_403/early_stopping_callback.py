"""Lightning-style early stopping callback that restores the best weights.

Modelled on pytorch_lightning.callbacks.EarlyStopping plus the
``restore_best_weights`` option of keras.callbacks.EarlyStopping.
"""
import math
import os

import torch
from torch import nn


class Callback:
    def on_train_start(self, trainer, pl_module):
        pass

    def on_validation_end(self, trainer, pl_module):
        pass

    def on_train_end(self, trainer, pl_module):
        pass


class EarlyStoppingWithRestore(Callback):
    mode_dict = {"min": torch.lt, "max": torch.gt}

    def __init__(self, monitor="val_loss", patience=3, mode="min",
                 min_delta=0.0, restore_best_weights=True, dirpath=None):
        self.monitor = monitor
        self.patience = patience
        self.mode = mode
        self.min_delta = min_delta if mode == "max" else -min_delta
        self.restore_best_weights = restore_best_weights
        self.dirpath = dirpath
        self.wait_count = 0
        self.stopped_epoch = 0
        self.best_score = torch.tensor(math.inf if mode == "min" else -math.inf)
        self.best_weights = None

    @property
    def monitor_op(self):
        return self.mode_dict[self.mode]

    def on_validation_end(self, trainer, pl_module):
        current = trainer.callback_metrics.get(self.monitor)
        if current is None:
            return
        current = torch.as_tensor(current)
        if self.monitor_op(current - self.min_delta, self.best_score):
            self.best_score = current
            self.wait_count = 0
            if self.restore_best_weights:
                self.best_weights = pl_module.state_dict()  # expect: TEN402
            if self.dirpath is not None:
                torch.save(pl_module.state_dict(), os.path.join(self.dirpath, "best.pt"))  # ok
        else:
            self.wait_count += 1
            if self.wait_count >= self.patience:
                self.stopped_epoch = trainer.current_epoch
                trainer.should_stop = True

    def on_train_end(self, trainer, pl_module):
        if self.restore_best_weights and self.best_weights is not None:
            pl_module.load_state_dict(self.best_weights)


class _Trainer:
    def __init__(self, max_epochs, callbacks):
        self.max_epochs = max_epochs
        self.callbacks = callbacks
        self.callback_metrics = {}
        self.should_stop = False
        self.current_epoch = 0

    def fit(self, module, x, y, vx, vy):
        opt = torch.optim.SGD(module.parameters(), lr=0.5)
        for self.current_epoch in range(self.max_epochs):
            opt.zero_grad()
            loss = nn.functional.mse_loss(module(x), y)
            loss.backward()
            opt.step()
            with torch.no_grad():
                self.callback_metrics["val_loss"] = nn.functional.mse_loss(module(vx), vy).item()
            for cb in self.callbacks:
                cb.on_validation_end(self, module)
            if self.should_stop:
                break
        for cb in self.callbacks:
            cb.on_train_end(self, module)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Linear(4, 1)
    x, y = torch.randn(32, 4), torch.randn(32, 1)
    vx, vy = torch.randn(16, 4), torch.randn(16, 1)
    es = EarlyStoppingWithRestore(patience=2)
    _Trainer(30, [es]).fit(model, x, y, vx, vy)
    with torch.no_grad():
        final = nn.functional.mse_loss(model(vx), vy).item()
    print("best", float(es.best_score), "after restore", final)
