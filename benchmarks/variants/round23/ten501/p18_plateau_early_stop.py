"""ReduceLROnPlateau and early stopping driven by losses."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EarlyStopping:
    def __init__(self, patience=3):
        self.patience = patience
        self.history = []
        self.counter = 0

    def __call__(self, score):
        self.history.append(score)
        if len(self.history) > 1 and score >= min(self.history[:-1]):
            self.counter += 1
        return self.counter >= self.patience


@torch.no_grad()
def evaluate(model, x, y):
    return F.mse_loss(model(x), y)


torch.manual_seed(0)
model = nn.Linear(5, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1)
train_stopper, val_stopper = EarlyStopping(), EarlyStopping()
xv, yv = torch.randn(16, 5), torch.randn(16, 1)
for epoch in range(5):
    x, y = torch.randn(16, 5), torch.randn(16, 1)
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    plateau.step(loss)  # ok
    train_stopper(loss)  # expect: TEN501
    val_loss = evaluate(model, xv, yv)
    stop = val_stopper(val_loss)  # ok
    if stop:
        break
print(len(train_stopper.history), opt.param_groups[0]["lr"], len(val_stopper.history))
