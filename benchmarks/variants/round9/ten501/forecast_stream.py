"""Streaming-style training for a multi-horizon LSTM forecaster.

Training and validation are written as generators so the driver can decide
how often to log, checkpoint or stop early.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Forecaster(nn.Module):
    def __init__(self, n_features, horizon, hidden=128, layers=2, dropout=0.1):
        super().__init__()
        self.lstm = nn.LSTM(n_features, hidden, layers, batch_first=True, dropout=dropout)
        self.head = nn.Linear(hidden, horizon)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


def training_steps(model, loader, optimizer, epochs, clip=1.0):
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            pred = model(x)
            loss = F.huber_loss(pred, y, delta=1.0)
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), clip)
            optimizer.step()
            yield epoch, loss


@torch.no_grad()
def validation_losses(model, loader):
    model.eval()
    for x, y in loader:
        pred = model(x)
        yield F.l1_loss(pred, y, reduction="sum"), y.numel()


def run(model, train_loader, val_loader, epochs=30, lr=1e-3, log_every=200):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    history = []
    val_curve = []
    last_epoch = 0
    best = math.inf
    for i, (epoch, loss) in enumerate(training_steps(model, train_loader, optimizer, epochs)):
        history.append(loss)  # expect: TEN501
        if i % log_every == 0:
            print(f"iter {i} epoch {epoch} huber {torch.stack(history[-log_every:]).mean():.4f}")
        if epoch != last_epoch:
            total, count = 0.0, 0
            for vloss, n in validation_losses(model, val_loader):
                total = total + vloss  # ok
                count += n
            mae = float(total) / count
            val_curve.append(mae)
            if mae < best:
                best = mae
                torch.save(model.state_dict(), "forecaster_best.pt")
            model.train()
            last_epoch = epoch
    return [float(h) for h in history], val_curve
