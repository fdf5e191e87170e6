"""EarlyStopping helper fed with a validation loss computed without torch.no_grad()."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class EarlyStopping:
    """Stop training when validation loss does not improve after `patience` epochs."""

    def __init__(self, patience=3, delta=0.0):
        self.patience = patience
        self.delta = delta
        self.counter = 0
        self.best_score = None
        self.early_stop = False
        self.val_loss_min = float("inf")
        self.history = []

    def __call__(self, val_loss):
        score = -val_loss
        self.history.append(score)
        if self.best_score is None or score > self.best_score + self.delta:
            self.best_score = score
            self.val_loss_min = val_loss
            self.counter = 0
        else:
            self.counter += 1
            if self.counter >= self.patience:
                self.early_stop = True


class BestTracker:
    """Keeps only the best value seen so far."""

    def __init__(self):
        self.best = None

    def update(self, value):
        if self.best is None or value < self.best:
            self.best = value
        return self.best


model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
xt, yt = torch.randn(32, 5), torch.randn(32, 1)
xv, yv = torch.randn(16, 5), torch.randn(16, 1)

stopper = EarlyStopping(patience=2)
stopper_clean = EarlyStopping(patience=2)
best_tracker = BestTracker()
val_curve = []

for epoch in range(4):
    model.train()
    loss = F.mse_loss(model(xt), yt)
    opt.zero_grad()
    loss.backward()
    opt.step()

    model.eval()
    val_loss = F.mse_loss(model(xv), yv)
    stopper(val_loss)  # expect: TEN501
    stopper_clean(val_loss.item())  # ok
    best_tracker.update(val_loss)  # either
    val_curve.append(round(val_loss.item(), 4))  # ok
    if stopper_clean.early_stop:
        break

print("val curve:", val_curve, "counter:", stopper_clean.counter, "best:", round(stopper_clean.val_loss_min, 4))
