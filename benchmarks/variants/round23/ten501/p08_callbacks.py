"""Keras-style callbacks attached to a plain loop."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class History:
    def __init__(self):
        self.batch_losses = []

    def on_batch_end(self, step, loss):
        self.batch_losses.append(loss)


class Printer:
    def __init__(self, every):
        self.every = every

    def on_batch_end(self, step, loss):
        if step % self.every == 0:
            print(f"step {step}: {loss.item():.4f}")


class BestKeeper:
    def __init__(self):
        self.best = None

    def on_batch_end(self, step, loss):
        if self.best is None or loss < self.best:
            self.best = loss


class EarlyStop:
    def __init__(self, patience=2):
        self.patience, self.bad, self.best = patience, 0, float("inf")
        self.scores = []

    def step(self, val_loss):
        self.scores.append(val_loss)
        if val_loss < self.best:
            self.best, self.bad = val_loss, 0
        else:
            self.bad += 1
        return self.bad > self.patience


torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
xs, ys = torch.randn(24, 3), torch.randn(24, 1)
history, printer, keeper, stopper = History(), Printer(every=3), BestKeeper(), EarlyStop()
step = 0
for epoch in range(3):
    for i in range(0, 24, 8):
        loss = F.mse_loss(model(xs[i:i + 8]), ys[i:i + 8])
        opt.zero_grad()
        loss.backward()
        opt.step()
        history.on_batch_end(step, loss)  # expect: TEN501
        printer.on_batch_end(step, loss)  # ok
        keeper.on_batch_end(step, loss)  # either: TEN501
        step += 1
    with torch.no_grad():
        val_loss = F.mse_loss(model(xs), ys)
    stop = stopper.step(val_loss)  # ok
    if stop:
        break
print(len(history.batch_losses), float(keeper.best), len(stopper.scores))
