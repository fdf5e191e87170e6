"""Patience-based early stopping that remembers the best weights seen so far."""
import copy
import math

import torch
from torch import nn


class EarlyStopping:
    def __init__(self, patience=3, min_delta=0.0, mode="min"):
        self.patience = patience
        self.min_delta = min_delta
        self.mode = mode
        self.best_score = math.inf if mode == "min" else -math.inf
        self.bad_epochs = 0
        self.best_state = None
        self.best_optim_state = None
        self.best_epoch = -1

    def _improved(self, score):
        if self.mode == "min":
            return score < self.best_score - self.min_delta
        return score > self.best_score + self.min_delta

    def step(self, score, model, optimizer, epoch):
        """Returns True when training should stop."""
        if self._improved(score):
            self.best_score = score
            self.best_epoch = epoch
            self.bad_epochs = 0
            self.best_state = model.state_dict()  # expect: TEN402
            self.best_optim_state = copy.deepcopy(optimizer.state_dict())  # ok
            return False
        self.bad_epochs += 1
        return self.bad_epochs >= self.patience

    def restore(self, model, optimizer=None):
        if self.best_state is None:
            return
        model.load_state_dict(self.best_state)
        if optimizer is not None and self.best_optim_state is not None:
            optimizer.load_state_dict(self.best_optim_state)


def make_data(n=64, seed=0):
    w = torch.randn(8, 1, generator=torch.Generator().manual_seed(123))
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g)
    y = x @ w + 0.3 * torch.randn(n, 1, generator=g)
    return x, y


def fit(epochs=30, lr=0.3):
    torch.manual_seed(0)
    x_tr, y_tr = make_data(64, 0)
    x_va, y_va = make_data(32, 1)
    model = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    stopper = EarlyStopping(patience=3)
    history = []
    for epoch in range(epochs):
        model.train()
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x_tr), y_tr)
        loss.backward()
        opt.step()
        model.eval()
        with torch.no_grad():
            val = nn.functional.mse_loss(model(x_va), y_va).item()
        history.append(val)
        if stopper.step(val, model, opt, epoch):
            break
    stopper.restore(model, opt)
    return model, stopper, history


if __name__ == "__main__":
    model, stopper, history = fit()
    print("best epoch", stopper.best_epoch, "best val", round(stopper.best_score, 4))
    print("epochs run", len(history))
