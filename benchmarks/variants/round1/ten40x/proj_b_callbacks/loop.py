"""Minimal callback-driven trainer."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from base import SafeSnapshot
from rewind import RestoreBestOnEnd, RewindOnDivergence


class Trainer:
    def __init__(self, model, callbacks, lr=0.05):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        self.callbacks = callbacks

    def fit(self, data, epochs=5):
        for epoch in range(epochs):
            for x, y in data:
                self.optimizer.zero_grad()
                F.mse_loss(self.model(x), y).backward()
                self.optimizer.step()
            with torch.no_grad():
                val = sum(F.mse_loss(self.model(x), y).item() for x, y in data)
            for cb in self.callbacks:
                cb.on_epoch_end(self, {"val_loss": val})
        for cb in self.callbacks:
            cb.on_train_end(self)


if __name__ == "__main__":
    d = [(torch.randn(8, 3), torch.randn(8, 1)) for _ in range(3)]
    Trainer(nn.Linear(3, 1), [RestoreBestOnEnd(), RewindOnDivergence(), SafeSnapshot()]).fit(d)
