"""EarlyStopping helper (pytorchtools-style) fed with validation losses."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class EarlyStopping:
    def __init__(self, patience=3, delta=0.0):
        self.patience, self.delta = patience, delta
        self.counter = 0
        self.best_score = None
        self.early_stop = False
        self.val_loss_min = np.inf
        self.scores = []

    def __call__(self, val_loss, model):
        score = -val_loss
        self.scores.append(score)
        if self.best_score is None or score > self.best_score + self.delta:
            self.best_score = score
            self.val_loss_min = val_loss
            self.counter = 0
        else:
            self.counter += 1
            if self.counter >= self.patience:
                self.early_stop = True


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    xv, yv = torch.randn(16, 3), torch.randn(16, 1)
    stopper_bad, stopper_ok, stopper_np = EarlyStopping(), EarlyStopping(), EarlyStopping()
    val_curve = []
    for epoch in range(5):
        for _ in range(2):
            loss = F.mse_loss(model(torch.randn(8, 3)), torch.randn(8, 1))
            opt.zero_grad()
            loss.backward()
            opt.step()
        val_loss = F.mse_loss(model(xv), yv)
        stopper_bad(val_loss, model)  # expect: TEN501
        stopper_ok(val_loss.item(), model)  # ok
        stopper_np(val_loss.detach().numpy(), model)  # ok
        val_curve.append(val_loss)  # expect: TEN501
        if stopper_ok.early_stop:
            break
    print(float(stopper_bad.best_score), stopper_ok.best_score, float(stopper_np.val_loss_min), len(val_curve), float(val_curve[-1]))


if __name__ == "__main__":
    main()
