"""A Keras-like fit() loop for torch modules with a ModelCheckpoint callback.

Mirrors keras.callbacks.ModelCheckpoint(save_best_only=True); when no
filepath is given the best weights are kept in memory instead of on disk.
"""
import os
import tempfile

import numpy as np
import torch
from torch import nn


class ModelCheckpoint:
    def __init__(self, filepath=None, monitor="val_loss", save_best_only=True, verbose=0):
        self.filepath = filepath
        self.monitor = monitor
        self.save_best_only = save_best_only
        self.verbose = verbose
        self.best = np.inf
        self.best_state = None
        self.model = None

    def set_model(self, model):
        self.model = model

    def on_epoch_end(self, epoch, logs):
        current = logs.get(self.monitor)
        if current is None or (self.save_best_only and not current < self.best):
            return
        if self.verbose:
            print(f"Epoch {epoch + 1}: {self.monitor} improved from {self.best:.4f} to {current:.4f}")
        self.best = current
        if self.filepath:
            torch.save(self.model.state_dict(), self.filepath.format(epoch=epoch + 1))  # ok
        else:
            self.best_state = {name: t for name, t in self.model.state_dict().items()}  # expect: TEN402


class Sequential(nn.Sequential):
    def compile(self, optimizer, loss):
        self.optimizer = optimizer
        self.loss_fn = loss

    def fit(self, x, y, epochs=1, validation_data=None, callbacks=()):
        for cb in callbacks:
            cb.set_model(self)
        history = {"loss": [], "val_loss": []}
        for epoch in range(epochs):
            self.optimizer.zero_grad()
            loss = self.loss_fn(self(x), y)
            loss.backward()
            self.optimizer.step()
            logs = {"loss": loss.item()}
            if validation_data is not None:
                with torch.no_grad():
                    logs["val_loss"] = self.loss_fn(self(validation_data[0]), validation_data[1]).item()
            for k, v in logs.items():
                history[k].append(v)
            for cb in callbacks:
                cb.on_epoch_end(epoch, logs)
        return history


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
    model.compile(torch.optim.Adam(model.parameters(), lr=0.05), nn.functional.mse_loss)
    x, y = torch.randn(64, 3), torch.randn(64, 1)
    val = (torch.randn(16, 3), torch.randn(16, 1))
    mem_cb = ModelCheckpoint()
    with tempfile.TemporaryDirectory() as d:
        disk_cb = ModelCheckpoint(os.path.join(d, "w-{epoch:02d}.pt"))
        hist = model.fit(x, y, epochs=40, validation_data=val, callbacks=[mem_cb, disk_cb])
    model.load_state_dict(mem_cb.best_state)
    with torch.no_grad():
        print("best val", round(mem_cb.best, 4), "restored val", round(nn.functional.mse_loss(model(val[0]), val[1]).item(), 4))
