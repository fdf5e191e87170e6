"""Temporal conv net for multi-step load forecasting; training written as a generator."""
from typing import Iterator

import torch
import torch.nn as nn


class CausalConv(nn.Module):
    def __init__(self, c_in, c_out, k, dilation):
        super().__init__()
        self.pad = (k - 1) * dilation
        self.conv = nn.Conv1d(c_in, c_out, k, dilation=dilation)

    def forward(self, x):
        return self.conv(nn.functional.pad(x, (self.pad, 0)))


class TCN(nn.Module):
    def __init__(self, n_feat, horizon, ch=64, levels=4):
        super().__init__()
        layers, c = [], n_feat
        for i in range(levels):
            layers += [CausalConv(c, ch, 3, 2 ** i), nn.ReLU()]
            c = ch
        self.body = nn.Sequential(*layers)
        self.head = nn.Linear(ch, horizon)

    def forward(self, x):  # x: (B, F, L)
        return self.head(self.body(x)[:, :, -1])


def windows(series, lookback, horizon, batch):
    starts = torch.randint(0, series.size(1) - lookback - horizon, (batch,))
    x = torch.stack([series[:, s : s + lookback] for s in starts])
    y = torch.stack([series[0, s + lookback : s + lookback + horizon] for s in starts])
    return x, y


def train_iter(model, opt, series, steps, lookback=168, horizon=24) -> Iterator[torch.Tensor]:
    for _ in range(steps):
        x, y = windows(series, lookback, horizon, 32)
        pred = model(x)
        loss = nn.functional.smooth_l1_loss(pred, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        yield loss


def train_iter_scalar(model, opt, series, steps, lookback=168, horizon=24) -> Iterator[float]:
    for loss in train_iter(model, opt, series, steps, lookback, horizon):
        yield loss.item()


def main(series):
    model = TCN(series.size(0), 24)
    opt = torch.optim.Adam(model.parameters(), lr=3e-4)
    for epoch in range(20):
        epoch_total = sum(train_iter(model, opt, series, steps=100))  # expect: TEN501
        print(epoch, float(epoch_total) / 100)

    clean_total = 0.0
    for value in train_iter_scalar(model, opt, series, steps=100):
        clean_total += value  # ok
    worst = 0.0
    for loss in train_iter(model, opt, series, steps=10):
        worst = max(worst, loss.item())  # ok
    print("fine-tune", clean_total / 100, worst)


@torch.no_grad()
def rolling_forecast(model, series, lookback=168, horizon=24):
    model.eval()
    preds = []
    for s in range(0, series.size(1) - lookback - horizon, horizon):
        preds.append(model(series[None, :, s : s + lookback]))  # ok
    return torch.cat(preds, dim=0)
