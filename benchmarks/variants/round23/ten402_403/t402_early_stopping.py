"""Early stopping that keeps the best weights in memory and restores them at the end."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)


class EarlyStopping:
    def __init__(self, patience=2):
        self.patience = patience
        self.best_loss = float("inf")
        self.best_state = None
        self.bad_epochs = 0

    def step(self, val_loss, model):
        if val_loss < self.best_loss:
            self.best_loss = val_loss
            self.best_state = model.state_dict()  # expect: TEN402
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
        return self.bad_epochs > self.patience


class CopyingEarlyStopping(EarlyStopping):
    def step(self, val_loss, model):
        if val_loss < self.best_loss:
            self.best_loss = val_loss
            self.best_state = copy.deepcopy(model.state_dict())  # ok
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
        return self.bad_epochs > self.patience


def fit(stopper, fake_val):
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x = torch.randn(32, 4)
    y = x.sum(dim=1, keepdim=True)
    for epoch, v in enumerate(fake_val):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if stopper.step(v, model):
            break
    model.load_state_dict(stopper.best_state)
    return sum(p.sum().item() for p in model.parameters())


torch.manual_seed(0)
a = fit(EarlyStopping(), [1.0, 0.4, 0.6, 0.7, 0.8, 0.9])
torch.manual_seed(0)
b = fit(CopyingEarlyStopping(), [1.0, 0.4, 0.6, 0.7, 0.8, 0.9])
print(f"restored checksum (plain stopper): {a:.6f}")
print(f"restored checksum (copying stopper): {b:.6f}")
