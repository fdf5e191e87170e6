"""Multi-step forecasting and online anomaly scoring for sensor time series."""
import numpy as np
import torch
import torch.nn as nn


class LSTMForecaster(nn.Module):
    def __init__(self, n_features, hidden=128, layers=2):
        super().__init__()
        self.lstm = nn.LSTM(n_features, hidden, layers, batch_first=True, dropout=0.1)
        self.head = nn.Linear(hidden, n_features)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


@torch.no_grad()
def rollout(model, context, horizon):
    model.eval()
    window = context.clone()
    preds = []
    for _ in range(horizon):
        y = model(window)
        preds.append(y)
        window[:, :-1] = window[:, 1:]  # expect: TEN403
        window[:, -1] = y
    return torch.stack(preds, dim=1)


@torch.no_grad()
def rollout_with_covariates(model, context, future_cov, horizon):
    model.eval()
    window = context
    preds = []
    for step in range(horizon):
        y = model(window)
        preds.append(y[:, : -future_cov.shape[-1]])
        nxt = torch.cat((y[:, : -future_cov.shape[-1]], future_cov[:, step]), dim=-1).unsqueeze(1)
        window = torch.cat((window[:, 1:], nxt), dim=1)  # ok
    return torch.stack(preds, dim=1)


class StreamingAnomalyDetector:
    def __init__(self, autoencoder, window, n_features, threshold):
        self.model = autoencoder.eval()
        self.window = torch.zeros(window, n_features)
        self.threshold = threshold
        self.count = 0

    @torch.no_grad()
    def push(self, x):
        recent = self.window[1:]
        self.window[:-1] = recent  # expect: TEN403
        self.window[-1] = torch.as_tensor(x, dtype=self.window.dtype)
        self.count += 1
        if self.count < self.window.shape[0]:
            return None
        recon = self.model(self.window.unsqueeze(0)).squeeze(0)
        score = (recon - self.window).pow(2).mean().item()
        return score > self.threshold, score


class RollingStats:
    def __init__(self, window, n_features):
        self.buf = np.zeros((window, n_features), dtype=np.float32)
        self.n = 0

    def push(self, x):
        self.buf[:-1] = self.buf[1:]  # ok
        self.buf[-1] = x
        self.n = min(self.n + 1, len(self.buf))

    def zscore(self, x):
        seen = self.buf[-self.n:]
        return (x - seen.mean(0)) / (seen.std(0) + 1e-6)
