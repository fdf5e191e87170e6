"""EarlyStopping helper (pytorchtools style) fed from a validate() that forgot no_grad."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class EarlyStopping:
    def __init__(self, patience=7, delta=0.0):
        self.patience = patience
        self.counter = 0
        self.best_score = None
        self.early_stop = False
        self.val_loss_min = np.inf
        self.delta = delta

    def __call__(self, val_loss, model):
        score = -val_loss
        if self.best_score is None:
            self.best_score = score
            self.val_loss_min = val_loss
        elif score < self.best_score + self.delta:
            self.counter += 1
            if self.counter >= self.patience:
                self.early_stop = True
        else:
            self.best_score = score
            self.val_loss_min = val_loss
            self.counter = 0


def validate(model, val_data):
    model.eval()
    total = 0
    for x, y in val_data:
        total = total + F.mse_loss(model(x), y)  # expect: TEN501
    model.train()
    return total / len(val_data)


model = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
train_data = [(torch.randn(8, 5), torch.randn(8, 1)) for _ in range(3)]
val_data = [(torch.randn(8, 5), torch.randn(8, 1)) for _ in range(2)]
stopper = EarlyStopping(patience=10)
stopper_ok = EarlyStopping(patience=10)
best_loss = float("inf")
best_loss_ok = float("inf")
for epoch in range(6):
    for x, y in train_data:
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    val_loss = validate(model, val_data)
    stopper(val_loss, model)  # expect: TEN501
    stopper_ok(val_loss.item(), model)  # ok
    best_loss = min(best_loss, val_loss)  # expect: TEN501
    best_loss_ok = min(best_loss_ok, val_loss.item())  # ok
print(stopper.counter, stopper_ok.best_score, float(best_loss), best_loss_ok)
