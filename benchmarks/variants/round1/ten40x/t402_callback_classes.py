"""Early stopping helpers kept on `self`."""
import copy

import numpy as np
import torch
import torch.nn as nn


class EarlyStopping:
    """Stop when validation loss has not improved for `patience` calls."""

    def __init__(self, patience=5, delta=0.0, restore_best=True):
        self.patience = patience
        self.delta = delta
        self.restore_best = restore_best
        self.counter = 0
        self.best_score = None
        self.best_state = None
        self.early_stop = False

    def __call__(self, val_loss, model):
        score = -val_loss
        if self.best_score is None or score > self.best_score + self.delta:
            self.best_score = score
            self.best_state = model.state_dict()  # expect: TEN402
            self.counter = 0
        else:
            self.counter += 1
            if self.counter >= self.patience:
                self.early_stop = True
                if self.restore_best:
                    model.load_state_dict(self.best_state)
        return self.early_stop


class BestWeightsKeeper:
    """Keeps the weights with the best metric; restore() is called at the end."""

    def __init__(self, mode="max"):
        self.mode = mode
        self.best = -np.inf if mode == "max" else np.inf
        self._weights = {}

    def _better(self, value):
        return value > self.best if self.mode == "max" else value < self.best

    def update(self, value, model):
        if self._better(value):
            self.best = value
            self._weights = {k: v.detach() for k, v in model.state_dict().items()}  # expect: TEN402

    def restore(self, model):
        if self._weights:
            model.load_state_dict(self._weights)


class PlateauRestorer(BestWeightsKeeper):
    """On plateau, rewind to the best weights and lower the learning rate."""

    def on_plateau(self, model, optimizer, factor=0.5):
        model.load_state_dict(self._weights)
        for g in optimizer.param_groups:
            g["lr"] *= factor


class SafeEarlyStopping:
    """Correct: snapshot is cloned tensor-by-tensor."""

    def __init__(self, patience=3):
        self.patience = patience
        self.wait = 0
        self.best = float("inf")
        self.best_state = None

    def step(self, loss, model):
        if loss < self.best:
            self.best = loss
            self.best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok: TEN402
            self.wait = 0
            return False
        self.wait += 1
        if self.wait >= self.patience:
            model.load_state_dict(self.best_state)
            return True
        return False


class DeepCopyStopper:
    """Correct: deepcopy of the state dict."""

    def __init__(self):
        self.best = None
        self.state = None

    def __call__(self, metric, model):
        if self.best is None or metric > self.best:
            self.best = metric
            self.state = copy.deepcopy(model.state_dict())  # ok: TEN402

    def restore(self, model):
        model.load_state_dict(self.state)


def main():
    model = nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    es, keeper, safe = EarlyStopping(patience=2), PlateauRestorer(mode="min"), SafeEarlyStopping()
    dc = DeepCopyStopper()
    x, y = torch.randn(64, 8), torch.randn(64, 1)
    for epoch in range(10):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        v = loss.item()
        keeper.update(v, model)
        safe.step(v, model)
        dc(-v, model)
        if es(v, model):
            break
    keeper.on_plateau(model, opt)
    dc.restore(model)


if __name__ == "__main__":
    main()
