"""Minimal trainer with patience-based early stopping and a restart-on-divergence option.

Run from the parent folder:  python -m proj_earlystop.trainer
"""
import math

import torch
from torch import nn

from proj_earlystop.state_utils import capture_state, capture_state_copy, restore_state


class Trainer:
    def __init__(self, model, lr=0.05, patience=3, max_restarts=1):
        self.model = model
        self.lr = lr
        self.patience = patience
        self.max_restarts = max_restarts
        self.best_loss = math.inf
        self.best_state = None

    def _epoch(self, opt, data):
        x, y = data
        opt.zero_grad()
        loss = nn.functional.mse_loss(self.model(x), y)
        loss.backward()
        opt.step()
        return loss.item()

    @torch.no_grad()
    def _validate(self, data):
        x, y = data
        return nn.functional.mse_loss(self.model(x), y).item()

    def fit(self, train, val, epochs=50):
        initial = capture_state_copy(self.model)  # ok
        restarts = 0
        opt = torch.optim.SGD(self.model.parameters(), lr=self.lr, momentum=0.9)
        bad_epochs = 0
        for epoch in range(epochs):
            train_loss = self._epoch(opt, train)
            if not math.isfinite(train_loss) and restarts < self.max_restarts:
                restore_state(self.model, initial)
                self.lr *= 0.1
                opt = torch.optim.SGD(self.model.parameters(), lr=self.lr, momentum=0.9)
                restarts += 1
                continue
            val_loss = self._validate(val)
            if val_loss < self.best_loss:
                self.best_loss = val_loss
                self.best_state = capture_state(self.model)  # expect: TEN402
                bad_epochs = 0
            else:
                bad_epochs += 1
                if bad_epochs >= self.patience:
                    break
        if self.best_state is not None:
            restore_state(self.model, self.best_state)
        return self.best_loss


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
    train = (torch.randn(64, 5), torch.randn(64, 1))
    val = (torch.randn(32, 5), torch.randn(32, 1))
    t = Trainer(model)
    best = t.fit(train, val)
    print("best val", round(best, 4), "after restore", round(t._validate(val), 4))
