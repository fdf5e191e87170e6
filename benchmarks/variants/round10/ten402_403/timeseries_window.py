"""Recursive multi-step forecasting with a fixed-length lookback window."""
import numpy as np
import torch


class RollingForecaster:
    """Feeds the model the last `lookback` steps and rolls its own predictions back in."""

    def __init__(self, model, lookback=96, horizon=24):
        self.model = model
        self.lookback = lookback
        self.horizon = horizon

    @torch.no_grad()
    def forecast(self, history, steps):
        # history: (B, T, F), T >= lookback
        self.model.eval()
        window = history[:, -self.lookback:].clone()
        preds = []
        for _ in range(0, steps, self.horizon):
            yhat = self.model(window)  # (B, horizon, F)
            preds.append(yhat)
            tail = window[:, self.horizon:]
            window[:, :-self.horizon] = tail  # expect: TEN403
            window[:, -self.horizon:] = yhat
        return torch.cat(preds, dim=1)[:, :steps]

    @torch.no_grad()
    def forecast_with_covariates(self, history, future_cov, steps):
        """Like `forecast`, but the last feature columns are known covariates taken from `future_cov`."""
        self.model.eval()
        h = self.horizon
        window = history[:, -self.lookback:].clone()
        n_cov = future_cov.shape[-1]
        preds = []
        for t in range(0, steps, h):
            yhat = self.model(window)
            preds.append(yhat)
            nxt = torch.empty_like(window)
            nxt[:, :-h] = window[:, h:]  # ok
            nxt[:, -h:, :-n_cov] = yhat[..., :-n_cov]
            nxt[:, -h:, -n_cov:] = future_cov[:, t:t + h]
            window = nxt
        return torch.cat(preds, dim=1)[:, :steps]


def make_windows(series: np.ndarray, lookback: int, horizon: int, stride: int = 1):
    """Slice a (T, F) array into (lookback, horizon) training pairs, streaming through a reusable buffer."""
    buf = np.empty((lookback + horizon, series.shape[1]), dtype=series.dtype)
    buf[:] = series[: lookback + horizon]
    xs, ys = [buf[:lookback].copy()], [buf[lookback:].copy()]
    pos = lookback + horizon
    while pos + stride <= len(series):
        buf[:-stride] = buf[stride:]  # ok
        buf[-stride:] = series[pos:pos + stride]
        pos += stride
        xs.append(buf[:lookback].copy())
        ys.append(buf[lookback:].copy())
    return np.stack(xs), np.stack(ys)
