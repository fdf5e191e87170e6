"""Keras-like early stopping for a PyTorch regression model, with best-weight restore."""
import copy

import torch
import torch.nn as nn


class EarlyStopper:
    def __init__(self, patience=4, min_delta=1e-4, restore_best=True):
        self.patience = patience
        self.min_delta = min_delta
        self.restore_best = restore_best
        self.wait = 0
        self.best = None
        self.best_weights = None
        self.stopped_epoch = None

    def __call__(self, model, val_loss, epoch):
        if self.best is None or val_loss < self.best - self.min_delta:
            self.best = val_loss
            self.wait = 0
            self.best_weights = copy.deepcopy(model.state_dict())  # ok
            return False
        self.wait += 1
        if self.wait >= self.patience:
            self.stopped_epoch = epoch
            return True
        return False

    def finish(self, model):
        if self.restore_best and self.best_weights is not None:
            model.load_state_dict(self.best_weights)


def train(model, train_xy, val_xy, max_epochs=100):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=2)
    stopper = EarlyStopper()
    loss_fn = nn.SmoothL1Loss()
    for epoch in range(max_epochs):
        model.train()
        x, y = train_xy
        perm = torch.randperm(len(x))
        for i in range(0, len(x), 32):
            idx = perm[i:i + 32]
            opt.zero_grad()
            loss_fn(model(x[idx]), y[idx]).backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            val_loss = loss_fn(model(val_xy[0]), val_xy[1]).item()
        sched.step(val_loss)
        if stopper(model, val_loss, epoch):
            break
    stopper.finish(model)
    return stopper.best, stopper.stopped_epoch


if __name__ == "__main__":
    torch.manual_seed(0)
    X = torch.randn(256, 3)
    Y = (X ** 2).sum(1, keepdim=True)
    net = nn.Sequential(nn.Linear(3, 32), nn.SiLU(), nn.Linear(32, 1))
    print(train(net, (X[:200], Y[:200]), (X[200:], Y[200:]), max_epochs=10))
