"""Early stopping helper fed by a validation function."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class EarlyStopping:
    def __init__(self, patience=3, min_delta=0.0):
        self.patience = patience
        self.min_delta = min_delta
        self.best = None
        self.counter = 0
        self.history = []
        self.stop = False

    def __call__(self, val_loss):
        self.history.append(val_loss)
        if self.best is None or val_loss < self.best - self.min_delta:
            self.best = val_loss
            self.counter = 0
        else:
            self.counter += 1
            self.stop = self.counter >= self.patience
        return self.stop


def validate(model, batches):
    model.eval()
    total = 0.0
    for x, y in batches:
        total += F.mse_loss(model(x), y).item()
    model.train()
    return total / len(batches)


def validate_tensor(model, batches):
    model.eval()
    losses = [F.mse_loss(model(x), y) for x, y in batches]
    model.train()
    return torch.stack(losses).mean()


@torch.no_grad()
def validate_nograd(model, batches):
    model.eval()
    out = torch.stack([F.mse_loss(model(x), y) for x, y in batches]).mean()
    model.train()
    return out


model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
w = torch.tensor([[1.0], [-2.0], [0.5]])
train = [(x, x @ w) for x in (torch.randn(16, 3) for _ in range(8))]
val = [(x, x @ w) for x in (torch.randn(16, 3) for _ in range(3))]

stop_float = EarlyStopping(patience=2)
stop_tensor = EarlyStopping(patience=2)
stop_nograd = EarlyStopping(patience=2)
best_val = float("inf")
best_state_loss = None

for epoch in range(8):
    for x, y in train:
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    v = validate(model, val)
    vt = validate_tensor(model, val)
    stop_float(v)  # ok
    stop_tensor(vt)  # expect: TEN501
    stop_nograd(validate_nograd(model, val))  # ok
    if v < best_val:
        best_val = v  # ok
        best_state_loss = vt  # either

print("epochs", len(stop_float.history), "best", round(stop_float.best, 5), "stop?", stop_float.stop)
print("tensor best", round(float(stop_tensor.best), 5), "nograd best", round(float(stop_nograd.best), 5))
print("best_state_loss", round(float(best_state_loss), 5))
