"""Early stopping that remembers the best weights (naive and careful variants)."""
import copy

import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class NaiveEarlyStopping:
    def __init__(self, patience=2):
        self.patience = patience
        self.best_loss = float("inf")
        self.best_weights = None
        self.bad_epochs = 0

    def step(self, loss, model):
        if loss < self.best_loss - 1e-4:
            self.best_loss = loss
            self.best_weights = model.state_dict()  # expect: TEN402
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
        return self.bad_epochs >= self.patience

    def restore(self, model):
        model.load_state_dict(self.best_weights)


class CarefulEarlyStopping(NaiveEarlyStopping):
    def step(self, loss, model):
        if loss < self.best_loss - 1e-4:
            self.best_loss = loss
            self.best_weights = copy.deepcopy(model.state_dict())  # ok
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
        return self.bad_epochs >= self.patience


def make_data(n, noise):
    x = torch.randn(n, 8)
    y = x[:, :1] * 2.0 - x[:, 1:2] + noise * torch.randn(n, 1)
    return x, y


def fit(stopper_cls):
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    xtr, ytr = make_data(24, 0.5)
    xva, yva = make_data(64, 0.0)
    stopper = stopper_cls(patience=3)
    loss_fn = nn.MSELoss()
    for epoch in range(40):
        model.train()
        for _ in range(5):
            opt.zero_grad()
            loss_fn(model(xtr), ytr).backward()
            opt.step()
        with torch.no_grad():
            val = loss_fn(model(xva), yva).item()
        if stopper.step(val, model):
            break
    stopper.restore(model)
    with torch.no_grad():
        after = loss_fn(model(xva), yva).item()
    return stopper.best_loss, after, epoch


if __name__ == "__main__":
    for cls in (NaiveEarlyStopping, CarefulEarlyStopping):
        best, after, ep = fit(cls)
        print(f"{cls.__name__}: best={best:.4f} restored={after:.4f} stopped_at={ep}")
