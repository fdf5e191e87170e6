"""Minimal Keras-style callback system for plain PyTorch training loops."""
import copy
import math
import os

import torch
import torch.nn as nn


class Callback:
    def on_train_begin(self, trainer):
        pass

    def on_epoch_end(self, trainer, epoch, logs):
        pass

    def on_batch_end(self, trainer, step, loss):
        pass

    def on_train_end(self, trainer):
        pass


class ModelCheckpoint(Callback):
    def __init__(self, dirpath, monitor="val_loss", mode="min"):
        self.dirpath = dirpath
        self.monitor = monitor
        self.mode = mode
        self.best = None
        self.best_path = None
        os.makedirs(dirpath, exist_ok=True)

    def _is_better(self, current):
        if self.best is None:
            return True
        return current < self.best if self.mode == "min" else current > self.best

    def on_epoch_end(self, trainer, epoch, logs):
        current = logs.get(self.monitor)
        if current is None or not self._is_better(current):
            return
        self.best = current
        path = os.path.join(self.dirpath, f"epoch{epoch:03d}-{self.monitor}{current:.4f}.pt")
        torch.save(trainer.model.state_dict(), path)  # ok
        self.best_path = path


class RestoreBestWeights(Callback):
    """Puts the best-scoring weights back into the model when training ends."""

    def __init__(self, monitor="val_loss", mode="min", min_delta=0.0):
        self.monitor = monitor
        self.mode = mode
        self.min_delta = min_delta
        self.best = None
        self.best_epoch = -1
        self._best_weights = None

    def _improved(self, current):
        if self.mode == "min":
            return current < self.best - self.min_delta
        return current > self.best + self.min_delta

    def on_epoch_end(self, trainer, epoch, logs):
        current = logs.get(self.monitor)
        if current is None:
            return
        if self.best is None or self._improved(current):
            self.best = current
            self.best_epoch = epoch
            self._best_weights = trainer.model.state_dict().copy()  # expect: TEN402

    def on_train_end(self, trainer):
        if self._best_weights is None:
            return
        print(f"Restoring weights from epoch {self.best_epoch} ({self.monitor}={self.best:.4f})")
        trainer.model.load_state_dict(self._best_weights)


class RollbackOnNaN(Callback):
    """Reloads the last finite weights if the loss blows up."""

    def __init__(self, every=200):
        self.every = every
        self._good = None

    def on_batch_end(self, trainer, step, loss):
        if math.isfinite(loss):
            if step % self.every == 0:
                self._good = copy.deepcopy(trainer.model.state_dict())  # ok
            return
        if self._good is not None:
            trainer.model.load_state_dict(self._good)
            for group in trainer.optimizer.param_groups:
                group["lr"] *= 0.5


class Trainer:
    def __init__(self, model, optimizer, loss_fn, callbacks=None, device="cpu"):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.loss_fn = loss_fn
        self.callbacks = callbacks or []
        self.device = device
        self.global_step = 0

    def _run_batch(self, x, y):
        x, y = x.to(self.device), y.to(self.device)
        self.optimizer.zero_grad()
        loss = self.loss_fn(self.model(x), y)
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), 5.0)
        self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def _validate(self, loader):
        self.model.eval()
        losses = [self.loss_fn(self.model(x.to(self.device)), y.to(self.device)).item() for x, y in loader]
        return sum(losses) / max(len(losses), 1)

    def fit(self, train_loader, val_loader, epochs):
        for cb in self.callbacks:
            cb.on_train_begin(self)
        for epoch in range(epochs):
            self.model.train()
            running = 0.0
            for x, y in train_loader:
                loss = self._run_batch(x, y)
                running += loss
                self.global_step += 1
                for cb in self.callbacks:
                    cb.on_batch_end(self, self.global_step, loss)
            logs = {"loss": running / len(train_loader), "val_loss": self._validate(val_loader)}
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch, logs)
        for cb in self.callbacks:
            cb.on_train_end(self)
        return self.model
