"""Early stopping with `restore_best_weights`, Keras-style, for a small MLP regressor."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class EarlyStopping:
    """Stop when the validation loss has not improved for `patience` epochs."""

    def __init__(self, patience=5, min_delta=0.0):
        self.patience = patience
        self.min_delta = min_delta
        self.best_loss = float("inf")
        self.best_epoch = -1
        self.best_state = None
        self.counter = 0

    def step(self, val_loss, model, epoch):
        if val_loss < self.best_loss - self.min_delta:
            self.best_loss = val_loss
            self.best_epoch = epoch
            self.best_state = model.state_dict()  # expect: TEN402
            self.counter = 0
        else:
            self.counter += 1
        return self.counter >= self.patience

    def restore_best_weights(self, model):
        model.load_state_dict(self.best_state)


class EarlyStoppingDeepCopy(EarlyStopping):
    def step(self, val_loss, model, epoch):
        if val_loss < self.best_loss - self.min_delta:
            self.best_loss = val_loss
            self.best_epoch = epoch
            self.best_state = copy.deepcopy(model.state_dict())  # ok
            self.counter = 0
        else:
            self.counter += 1
        return self.counter >= self.patience


def make_data():
    g = torch.Generator().manual_seed(1)
    w = torch.randn(8, 1, generator=g)
    x_tr = torch.randn(24, 8, generator=g)
    y_tr = x_tr @ w + 1.0 * torch.randn(24, 1, generator=g)  # noisy -> overfits
    x_va = torch.randn(200, 8, generator=g)
    y_va = x_va @ w
    return x_tr, y_tr, x_va, y_va


def fit(stopper_cls, data):
    x_tr, y_tr, x_va, y_va = data
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 64), nn.Tanh(), nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    stopper = stopper_cls(patience=8)
    for epoch in range(200):
        model.train()
        opt.zero_grad()
        F.mse_loss(model(x_tr), y_tr).backward()
        opt.step()
        model.eval()
        with torch.no_grad():
            val = F.mse_loss(model(x_va), y_va).item()
        if stopper.step(val, model, epoch):
            break
    stopper.restore_best_weights(model)
    with torch.no_grad():
        restored = F.mse_loss(model(x_va), y_va).item()
    print(f"{stopper_cls.__name__:22s} stopped@{epoch} best@{stopper.best_epoch} "
          f"best_val={stopper.best_loss:.4f} last_val={val:.4f} val_after_restore={restored:.4f}")


if __name__ == "__main__":
    data = make_data()
    fit(EarlyStopping, data)
    fit(EarlyStoppingDeepCopy, data)
