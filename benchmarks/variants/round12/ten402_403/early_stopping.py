"""Early stopping helpers used by the classification trainer."""
import copy
import os

import torch
from torch import nn


class EarlyStopping:
    """Stop when the validation loss has not improved for `patience` epochs.

    Keeps the weights of the best epoch so that they can be restored at the end.
    """

    def __init__(self, patience: int = 5, min_delta: float = 0.0):
        self.patience = patience
        self.min_delta = min_delta
        self.best_loss = float("inf")
        self.counter = 0
        self.best_state = None

    def step(self, val_loss: float, model: nn.Module) -> bool:
        if val_loss < self.best_loss - self.min_delta:
            self.best_loss = val_loss
            self.counter = 0
            self.best_state = model.state_dict()  # expect: TEN402
        else:
            self.counter += 1
        return self.counter >= self.patience

    def restore(self, model: nn.Module) -> None:
        if self.best_state is not None:
            model.load_state_dict(self.best_state)


class CheckpointingEarlyStopping(EarlyStopping):
    """Same policy, but the best weights are written to disk right away."""

    def __init__(self, path: str, patience: int = 5):
        super().__init__(patience=patience)
        self.path = path

    def step(self, val_loss: float, model: nn.Module) -> bool:
        if val_loss < self.best_loss - self.min_delta:
            self.best_loss = val_loss
            self.counter = 0
            torch.save(model.state_dict(), self.path)  # ok
            return False
        self.counter += 1
        return self.counter >= self.patience

    def restore(self, model: nn.Module) -> None:
        if os.path.exists(self.path):
            model.load_state_dict(torch.load(self.path))


class InMemoryEarlyStopping(EarlyStopping):
    def step(self, val_loss: float, model: nn.Module) -> bool:
        if val_loss < self.best_loss - self.min_delta:
            self.best_loss = val_loss
            self.counter = 0
            self.best_state = copy.deepcopy(model.state_dict())  # ok
            return False
        self.counter += 1
        return self.counter >= self.patience


def fit(model, train_loader, val_loader, epochs=50):
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    stopper = EarlyStopping(patience=3)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            opt.zero_grad()
            loss_fn(model(x), y).backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            val = sum(loss_fn(model(x), y).item() for x, y in val_loader)
        if stopper.step(val, model):
            print(f"stopping at epoch {epoch}")
            break
    stopper.restore(model)
    return model
