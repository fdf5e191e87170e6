"""Regression with an early-stopping helper that restores the best weights."""
import copy
import io

import torch
from torch import nn

torch.manual_seed(0)


class EarlyStopping:
    """Stops when the validation loss has not improved for `patience` epochs."""

    def __init__(self, patience=3, min_delta=1e-4):
        self.patience = patience
        self.min_delta = min_delta
        self.best_loss = float("inf")
        self.best_epoch = -1
        self.best_state = None
        self.wait = 0

    def __call__(self, epoch, val_loss, model):
        if val_loss < self.best_loss - self.min_delta:
            self.best_loss = val_loss
            self.best_epoch = epoch
            self.best_state = model.state_dict()  # expect: TEN402
            self.wait = 0
            return False
        self.wait += 1
        return self.wait >= self.patience

    def restore_best(self, model):
        if self.best_state is not None:
            model.load_state_dict(self.best_state)


class CheckpointingEarlyStopping(EarlyStopping):
    """Same policy, but the best state is deep-copied before it is kept."""

    def __call__(self, epoch, val_loss, model):
        if val_loss < self.best_loss - self.min_delta:
            self.best_loss = val_loss
            self.best_epoch = epoch
            self.best_state = copy.deepcopy(model.state_dict())  # ok
            self.wait = 0
            return False
        self.wait += 1
        return self.wait >= self.patience


def make_data(n, noise):
    x = torch.randn(n, 6)
    w = torch.tensor([[1.5], [-2.0], [0.5], [0.0], [3.0], [-1.0]])
    return x, x @ w + noise * torch.randn(n, 1)


x_tr, y_tr = make_data(24, 1.0)
x_va, y_va = make_data(200, 0.1)


def run(stopper_cls, label):
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
    stopper = stopper_cls(patience=4)
    loss_fn = nn.MSELoss()
    for epoch in range(60):
        model.train()
        opt.zero_grad()
        loss_fn(model(x_tr), y_tr).backward()
        opt.step()
        model.eval()
        with torch.no_grad():
            val = loss_fn(model(x_va), y_va).item()
        if stopper(epoch, val, model):
            break
    stopper.restore_best(model)
    with torch.no_grad():
        restored = loss_fn(model(x_va), y_va).item()
    print(f"[{label}] stopped at epoch {epoch}, best epoch {stopper.best_epoch}, "
          f"best val {stopper.best_loss:.5f}, val after restore {restored:.5f}")
    # ship the restored weights; serialising copies the tensors right away
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)  # ok
    print(f"[{label}] saved {buf.getbuffer().nbytes > 0}")


run(EarlyStopping, "plain")
run(CheckpointingEarlyStopping, "deepcopy")
