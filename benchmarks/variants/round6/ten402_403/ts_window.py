"""Recursive multi-step forecasting with a sliding input window.

A one-step-ahead MLP/GRU forecaster is rolled forward `horizon` steps by
appending each prediction to the input window (the "recursive strategy"
used in many forecasting tutorials and libraries).
"""
import torch
from torch import nn


class OneStepForecaster(nn.Module):
    def __init__(self, lookback, n_features, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(lookback * n_features, hidden),
                                 nn.ReLU(), nn.Linear(hidden, n_features))

    def forward(self, window):
        return self.net(window)


@torch.no_grad()
def recursive_forecast(model, history, horizon):
    """history: (batch, lookback, features) -> (batch, horizon, features)"""
    window = history.clone()
    preds = []
    for _ in range(horizon):
        nxt = model(window)
        preds.append(nxt)
        window[:, :-1] = window[:, 1:]  # expect: TEN403
        window[:, -1] = nxt
    return torch.stack(preds, dim=1)


@torch.no_grad()
def recursive_forecast_two_buffers(model, history, horizon):
    window = history.clone()
    scratch = torch.empty_like(window)
    preds = []
    for _ in range(horizon):
        nxt = model(window)
        preds.append(nxt)
        scratch[:, :-1] = window[:, 1:]  # ok
        scratch[:, -1] = nxt
        window, scratch = scratch, window
    return torch.stack(preds, dim=1)


def seasonal_naive(series, period=24):
    """Repeat the previous day for the next day (hourly data, 48-step buffer)."""
    buf = torch.zeros(series.shape[0], 2 * period)
    buf[:, 0:24] = series[:, -24:]
    buf[:, 24:48] = buf[:, 0:24]  # ok
    return buf[:, 24:48]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = OneStepForecaster(lookback=16, n_features=3).eval()
    hist = torch.randn(4, 16, 3)
    a = recursive_forecast(model, hist, horizon=6)
    b = recursive_forecast_two_buffers(model, hist, horizon=6)
    print("recursive strategies agree:", torch.allclose(a, b))
    print(seasonal_naive(torch.randn(2, 72)).shape)
