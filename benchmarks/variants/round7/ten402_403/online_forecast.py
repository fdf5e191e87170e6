import numpy as np
import pandas as pd
import torch
from torch import nn


class GRUForecaster(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.rnn = nn.GRU(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.head(out[:, -1])


class OnlineForecaster:
    """Keeps the last `lookback` observations of every series and produces multi-step forecasts."""

    def __init__(self, model, n_series, lookback=96, horizon=24, device="cpu"):
        self.model = model.to(device).eval()
        self.hist = torch.zeros(n_series, lookback, device=device)
        self.horizon = horizon
        self.count = 0

    @torch.no_grad()
    def observe(self, y_t: torch.Tensor):
        n = self.hist.shape[1]
        self.hist[:, 0:n - 1] = self.hist[:, 1:n]  # expect: TEN403
        self.hist[:, n - 1] = y_t
        self.count += 1

    @torch.no_grad()
    def forecast(self):
        x = self.hist.clone()
        mu = x.mean(1, keepdim=True)
        sd = x.std(1, keepdim=True).clamp(min=1e-3)
        window = (x - mu) / sd
        preds = []
        for _ in range(self.horizon):
            y_hat = self.model(window.unsqueeze(-1)).squeeze(-1)
            preds.append(y_hat)
            window = torch.cat([window[:, 1:], y_hat.unsqueeze(1)], dim=1)  # ok
        return torch.stack(preds, 1) * sd + mu


def difference(x: torch.Tensor) -> torch.Tensor:
    d = x.clone()
    d[:, 1:] = x[:, 1:] - x[:, :-1]  # ok
    return d


def add_lag(df: pd.DataFrame, col: str) -> pd.DataFrame:
    arr = df[col].to_numpy(dtype=np.float64, copy=True)
    arr[1:] = arr[:-1]  # ok
    arr[0] = np.nan
    return df.assign(**{f"{col}_lag1": arr})


def make_windows(series: torch.Tensor, lookback: int):
    w = series.unfold(-1, lookback + 1, 1)
    return w[..., :-1], w[..., -1]
