"""Early stopping on a validation loss computed each epoch."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)


class EarlyStopping:
    def __init__(self, patience=3, min_delta=0.0):
        self.patience = patience
        self.min_delta = min_delta
        self.best = None
        self.bad_epochs = 0
        self.scores = []

    def step(self, val_loss):
        self.scores.append(val_loss)
        if self.best is None or val_loss < self.best - self.min_delta:
            self.best = val_loss
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
        return self.bad_epochs >= self.patience


def validate(model, xv, yv):
    return nn.functional.mse_loss(model(xv), yv)


@torch.no_grad()
def validate_nograd(model, xv, yv):
    return nn.functional.mse_loss(model(xv), yv)


def train(model, stopper, checked):
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    x, y = torch.randn(64, 4), torch.randn(64, 1)
    xv, yv = torch.randn(32, 4), torch.randn(32, 1)
    best_state = None
    for epoch in range(8):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if checked:
            val_loss = validate_nograd(model, xv, yv)
            stop = stopper.step(val_loss)  # ok
        else:
            val_loss = validate(model, xv, yv)
            stop = stopper.step(val_loss)  # expect: TEN501
        if stopper.bad_epochs == 0:
            best_state = copy.deepcopy(model.state_dict())
        if stop:
            break
    return epoch, float(stopper.best), best_state is not None


base = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
print(train(copy.deepcopy(base), EarlyStopping(patience=5), checked=False))
print(train(copy.deepcopy(base), EarlyStopping(patience=5), checked=True))
