"""Early stopping with best-weight restoration, two flavours.

`EarlyStopping` is the one most of our experiment scripts import;
`PatientStopper` is the newer variant used by the sweep runner.
"""
import copy

import torch
from torch import nn


class EarlyStopping:
    def __init__(self, patience=3, min_delta=0.0):
        self.patience = patience
        self.min_delta = min_delta
        self.best_loss = float("inf")
        self.counter = 0
        self.best_state = None

    def __call__(self, val_loss, model):
        if val_loss < self.best_loss - self.min_delta:
            self.best_loss = val_loss
            self.counter = 0
            self.best_state = model.state_dict()  # expect: TEN402
            return False
        self.counter += 1
        return self.counter >= self.patience

    def restore(self, model):
        if self.best_state is not None:
            model.load_state_dict(self.best_state)


class PatientStopper:
    def __init__(self, patience=3):
        self.patience = patience
        self.best = float("inf")
        self.bad_epochs = 0
        self.snapshot = None

    def step(self, metric, model):
        if metric < self.best:
            self.best = metric
            self.bad_epochs = 0
            self.snapshot = copy.deepcopy(model.state_dict())  # ok
        else:
            self.bad_epochs += 1
        return self.bad_epochs > self.patience

    def restore(self, model):
        model.load_state_dict(self.snapshot)


def run(stopper_cls, seed=0):
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    x_tr, y_tr = torch.randn(64, 8), torch.randn(64, 1)
    x_va, y_va = torch.randn(32, 8), torch.randn(32, 1)
    stopper = stopper_cls(patience=2)
    for epoch in range(12):
        model.train()
        loss = nn.functional.mse_loss(model(x_tr), y_tr)
        opt.zero_grad()
        loss.backward()
        opt.step()
        model.eval()
        with torch.no_grad():
            val = nn.functional.mse_loss(model(x_va), y_va).item()
        stop = stopper(val, model) if callable(stopper) else stopper.step(val, model)
        if stop:
            break
    stopper.restore(model)
    with torch.no_grad():
        final_val = nn.functional.mse_loss(model(x_va), y_va).item()
    best = stopper.best_loss if hasattr(stopper, "best_loss") else stopper.best
    print(f"{stopper_cls.__name__}: best={best:.4f} after-restore={final_val:.4f}")


if __name__ == "__main__":
    run(EarlyStopping)
    run(PatientStopper)
