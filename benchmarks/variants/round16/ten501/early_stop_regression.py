"""Regression with a patience-based stopper on the validation loss."""
import copy

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class PatienceStopper:
    """Call it once per epoch with the validation loss; `.should_stop` turns True after
    `patience` epochs without an improvement of at least `min_delta`."""

    def __init__(self, patience=3, min_delta=0.0, verbose=False):
        self.patience, self.min_delta, self.verbose = patience, min_delta, verbose
        self.bad_epochs = 0
        self.best = None
        self.should_stop = False
        self.curve = []
        self.best_state = None

    def __call__(self, loss, model):
        self.curve.append(loss)
        if self.best is None or loss < self.best - self.min_delta:
            if self.verbose and self.best is not None:
                print(f"  improved {float(self.best):.5f} -> {float(loss):.5f}")
            self._remember(loss, model)
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
            self.should_stop = self.bad_epochs >= self.patience

    def _remember(self, loss, model):
        self.best = loss  # either
        self.best_state = copy.deepcopy(model.state_dict())  # ok


def loaders():
    x = torch.rand(300, 8) * 4 - 2
    y = torch.sin(x[:, :1]) + 0.3 * x[:, 1:2] ** 2 + 0.05 * torch.randn(300, 1)
    return (DataLoader(TensorDataset(x[:240], y[:240]), batch_size=40, shuffle=True),
            DataLoader(TensorDataset(x[240:], y[240:]), batch_size=20))


def validation_loss(model, loader, crit):
    model.eval()
    batch_losses = []
    for xb, yb in loader:
        batch_losses.append(crit(model(xb), yb))  # expect: TEN501
    return torch.stack(batch_losses).mean()


def fit(model, max_epochs=6, patience=2):
    train_dl, val_dl = loaders()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1)
    crit = nn.MSELoss()
    stopper = PatienceStopper(patience=patience, verbose=True)
    train_curve = []

    for epoch in range(1, max_epochs + 1):
        model.train()
        epoch_losses = []
        for xb, yb in train_dl:
            opt.zero_grad()
            loss = crit(model(xb), yb)
            loss.backward()
            opt.step()
            epoch_losses.append(loss.item())  # ok

        val = validation_loss(model, val_dl, crit)
        train_curve.append(np.mean(epoch_losses))  # ok
        plateau.step(val)  # ok
        print(f"epoch {epoch}: train {train_curve[-1]:.5f} val {val.item():.5f}")

        stopper(val, model)  # expect: TEN501
        if stopper.should_stop:
            print("stopping early")
            break

    model.load_state_dict(stopper.best_state)
    return model, train_curve


if __name__ == "__main__":
    fit(nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 1)))
