"""Loss smoothing and early stopping for a small regression net."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class EarlyStopping:
    def __init__(self, patience=3, min_delta=0.0):
        self.patience, self.min_delta = patience, min_delta
        self.best = None
        self.bad_epochs = 0
        self.history = []

    def step(self, metric):
        self.history.append(metric)
        if self.best is None or metric < self.best - self.min_delta:
            self.best = metric
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
        return self.bad_epochs > self.patience


class LossEMA:
    def __init__(self, beta=0.9):
        self.beta, self.value = beta, None

    def update(self, x):
        self.value = x if self.value is None else self.beta * self.value + (1 - self.beta) * x
        return self.value


def make_split(n, d=6):
    x = torch.randn(n, d)
    return x, x.sum(1, keepdim=True).sin()


def main(epochs=4):
    torch.manual_seed(0)
    xtr, ytr = make_split(64)
    xva, yva = make_split(32)
    model = nn.Sequential(nn.Linear(6, 16), nn.SiLU(), nn.Linear(16, 1))
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    ema, ema_ok = LossEMA(), LossEMA()
    stopper = EarlyStopping(patience=2)
    plateau = EarlyStopping(patience=2)
    best_state, best_val, curve = None, float("inf"), []
    for epoch in range(epochs):
        model.train()
        for xb, yb in zip(xtr.split(16), ytr.split(16)):
            loss = F.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema.update(loss)  # expect: TEN501
            ema_ok.update(loss.item())  # ok
            curve.extend([loss.detach(), loss.detach().sqrt()])  # ok
        model.eval()
        val_loss = F.mse_loss(model(xva), yva)
        stop = stopper.step(val_loss)  # expect: TEN501
        plateau.step(val_loss.item())  # ok
        if val_loss.item() < best_val:
            best_val = val_loss.item()
            best_state = copy.deepcopy(model.state_dict())
        print(f"epoch {epoch} ema={float(ema.value):.4f} val={val_loss.item():.4f}")
        if stop:
            break
    model.load_state_dict(best_state)
    return model


if __name__ == "__main__":
    main()
