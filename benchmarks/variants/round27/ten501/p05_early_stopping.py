"""Validation-driven early stopping plus ReduceLROnPlateau."""
import copy
import torch
import torch.nn as nn

torch.manual_seed(0)


class EarlyStopping:
    def __init__(self, patience=3, delta=0.0):
        self.patience = patience
        self.delta = delta
        self.best_score = None
        self.counter = 0
        self.val_history = []
        self.early_stop = False

    def __call__(self, val_loss):
        self.val_history.append(val_loss)
        score = -val_loss
        if self.best_score is None or score > self.best_score + self.delta:
            self.best_score = score
            self.counter = 0
        else:
            self.counter += 1
            if self.counter >= self.patience:
                self.early_stop = True


def validate(model, data, criterion):
    total = 0.0
    for x, y in data:
        total = total + criterion(model(x), y)
    return total / len(data)


@torch.no_grad()
def validate_nograd(model, data, criterion):
    total = 0.0
    for x, y in data:
        total = total + criterion(model(x), y)
    return total / len(data)


model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1, factor=0.5)
crit = nn.MSELoss()
train = [(torch.randn(16, 4), torch.randn(16, 1)) for _ in range(4)]
val = [(torch.randn(16, 4), torch.randn(16, 1)) for _ in range(2)]

stopper = EarlyStopping(patience=4)
stopper_clean = EarlyStopping(patience=4)
stopper_item = EarlyStopping(patience=4)
for epoch in range(8):
    for x, y in train:
        opt.zero_grad()
        crit(model(x), y).backward()
        opt.step()
    val_loss = validate(model, val, crit)
    stopper(val_loss)  # expect: TEN501
    stopper_clean(validate_nograd(model, val, crit))  # ok
    stopper_item(val_loss.item())  # ok
    sched.step(val_loss)  # ok
    if stopper.early_stop:
        break

print("epochs run", epoch + 1, "lr", opt.param_groups[0]["lr"])
print("best", round(-stopper_item.best_score, 4), "hist", [round(float(v), 4) for v in stopper_clean.val_history])
