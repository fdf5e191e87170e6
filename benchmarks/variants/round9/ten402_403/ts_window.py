"""Rolling windows and lag features for online forecasting."""
import numpy as np
import torch


class RollingWindow:
    """Fixed-length window of the most recent observations, oldest first."""

    def __init__(self, length, n_features, dtype=torch.float32):
        self.values = torch.zeros(length, n_features, dtype=dtype)
        self.filled = 0

    def append(self, row):
        row = torch.as_tensor(row, dtype=self.values.dtype)
        self.values[:-1].copy_(self.values[1:])  # expect: TEN403
        self.values[-1].copy_(row)
        self.filled = min(self.filled + 1, self.values.shape[0])

    def ready(self):
        return self.filled == self.values.shape[0]

    def as_batch(self):
        return self.values.unsqueeze(0)


def advance_(x, n):
    """Shift a (..., T) tensor left by ``n`` steps in place, zero-filling the tail."""
    if n <= 0:
        return x
    x[..., :-n].copy_(x[..., n:])  # expect: TEN403
    x[..., -n:].zero_()
    return x


def lagged(x, n):
    """Right-shift along the last dim by ``n`` steps, zero-filled, out of place."""
    if n == 0:
        return x.clone()
    out = torch.zeros_like(x)
    out[..., n:] = x[..., :-n]  # ok
    return out


def make_lag_matrix(series, lags):
    """(T,) numpy series -> (T, len(lags)) matrix of lagged copies, NaN where undefined."""
    cols = []
    for lag in lags:
        col = np.asarray(series, dtype=np.float64).copy()
        col[lag:] = col[:-lag]  # ok
        col[:lag] = np.nan
        cols.append(col)
    return np.stack(cols, axis=1)


class OnlineForecaster:
    def __init__(self, model, length, n_features, horizon):
        self.model = model.eval()
        self.window = RollingWindow(length, n_features)
        self.horizon = horizon

    @torch.no_grad()
    def observe(self, row):
        self.window.append(row)
        if not self.window.ready():
            return None
        return self.model(self.window.as_batch())[0, : self.horizon]
