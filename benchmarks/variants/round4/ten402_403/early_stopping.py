"""Patience-based early stopping with best-weight restoration."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class EarlyStopping:
    def __init__(self, patience=5, min_delta=0.0, mode="min"):
        self.patience = patience
        self.min_delta = min_delta
        self.mode = mode
        self.best_score = math.inf if mode == "min" else -math.inf
        self.best_state = None
        self.best_epoch = -1
        self.bad_epochs = 0

    def _improved(self, score):
        if self.mode == "min":
            return score < self.best_score - self.min_delta
        return score > self.best_score + self.min_delta

    def step(self, score, model, epoch):
        """Returns True when training should stop."""
        if self._improved(score):
            self.best_score = score
            self.best_epoch = epoch
            self.best_state = model.state_dict()  # expect: TEN402
            self.bad_epochs = 0
            return False
        self.bad_epochs += 1
        return self.bad_epochs >= self.patience

    def restore(self, model):
        if self.best_state is not None:
            model.load_state_dict(self.best_state)


def evaluate(model, x, y):
    model.eval()
    with torch.no_grad():
        return F.mse_loss(model(x), y).item()


def fit(model, train, val, epochs=50, lr=1e-2):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    stopper = EarlyStopping(patience=3)
    xs, ys = train
    for epoch in range(epochs):
        model.train()
        opt.zero_grad()
        loss = F.mse_loss(model(xs), ys)
        loss.backward()
        opt.step()
        val_loss = evaluate(model, *val)
        if stopper.step(val_loss, model, epoch):
            print(f"stopping at epoch {epoch}, best was {stopper.best_epoch}")
            break
    stopper.restore(model)
    return stopper


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))
    x = torch.randn(64, 8)
    y = x.sum(dim=1, keepdim=True)
    fit(net, (x, y), (x[:16] + 0.5, y[:16]))
