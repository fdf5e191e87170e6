"""Regression with an EarlyStopping object that is called like a function."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class EarlyStopping:
    def __init__(self, patience=3, min_delta=0.0):
        self.patience = patience
        self.min_delta = min_delta
        self.best_loss = float("inf")
        self.best_state = None
        self.bad_epochs = 0
        self.stop = False

    def __call__(self, val_loss, model):
        if val_loss < self.best_loss - self.min_delta:
            self.best_loss = val_loss
            self.best_state = model.state_dict()  # expect: TEN402
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
            self.stop = self.bad_epochs >= self.patience
        return self.stop

    def restore(self, model):
        if self.best_state is not None:
            model.load_state_dict(self.best_state)


class SafeEarlyStopping(EarlyStopping):
    def __call__(self, val_loss, model):
        if val_loss < self.best_loss - self.min_delta:
            self.best_loss = val_loss
            self.best_state = copy.deepcopy(model.state_dict())  # ok
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
            self.stop = self.bad_epochs >= self.patience
        return self.stop


def make_data(n=256):
    x = torch.randn(n, 6)
    w = torch.randn(6, 1)
    y = x @ w + 0.3 * torch.randn(n, 1)
    return x[:192], y[:192], x[192:], y[192:]


def evaluate(model, x, y):
    with torch.no_grad():
        return F.mse_loss(model(x), y).item()


def fit(stopper_cls, data):
    xtr, ytr, xva, yva = data
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    stopper = stopper_cls(patience=4)
    for epoch in range(40):
        for i in range(0, len(xtr), 32):
            opt.zero_grad()
            F.mse_loss(model(xtr[i:i + 32]), ytr[i:i + 32]).backward()
            opt.step()
        if stopper(evaluate(model, xva, yva), model):
            break
    stopper.restore(model)
    return stopper.best_loss, evaluate(model, xva, yva)


def main():
    data = make_data()
    for cls in (EarlyStopping, SafeEarlyStopping):
        best, restored = fit(cls, data)
        print(f"{cls.__name__:18s} best={best:.4f} after restore={restored:.4f}")


if __name__ == "__main__":
    main()
