"""Early stopping helper fed with a validation loss every epoch."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class EarlyStopping:
    def __init__(self, patience=3, min_delta=0.0):
        self.patience = patience
        self.min_delta = min_delta
        self.best = None
        self.bad_epochs = 0
        self.history = []

    def __call__(self, metric):
        self.history.append(metric)
        if self.best is None or metric < self.best - self.min_delta:
            self.best = metric
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
        return self.bad_epochs >= self.patience


def val_loss_of(model, x, y):
    model.eval()
    loss = nn.functional.mse_loss(model(x), y)
    model.train()
    return loss


@torch.no_grad()
def validate(model, x, y):
    model.eval()
    loss = nn.functional.mse_loss(model(x), y)
    model.train()
    return loss


def make_data(n):
    x = torch.randn(n, 4)
    return x, x @ torch.tensor([[1.0], [-2.0], [0.5], [0.0]])


xt, yt = make_data(64)
xv, yv = make_data(32)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1)
stopper = EarlyStopping(patience=10)
stopper_ckpt = EarlyStopping(patience=10)
best_weights = None

for epoch in range(6):
    for i in range(0, 64, 16):
        loss = nn.functional.mse_loss(model(xt[i:i + 16]), yt[i:i + 16])
        opt.zero_grad()
        loss.backward()
        opt.step()
    val_loss = val_loss_of(model, xv, yv)
    val_metric = validate(model, xv, yv)
    plateau.step(val_loss)  # ok
    stop = stopper(val_loss)  # expect: TEN501
    stopper_ckpt(val_metric)  # ok
    if stopper_ckpt.best is val_metric:
        best_weights = copy.deepcopy(model.state_dict())  # ok
    if stop:
        break

print(len(stopper.history), float(stopper_ckpt.best), best_weights is not None)
