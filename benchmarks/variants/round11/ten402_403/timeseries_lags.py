"""Feature engineering and rolling forecasting for a batch of univariate series."""
import torch
import torch.nn as nn


def lag_features(series: torch.Tensor, lags=(1, 2, 7)) -> torch.Tensor:
    """series: (n, T) -> (n, 1 + len(lags), T) with NaN where the lag is undefined."""
    feats = series.unsqueeze(1).repeat(1, len(lags) + 1, 1)
    for i, lag in enumerate(lags, start=1):
        row = feats[:, i]
        row[:, lag:] = row[:, :-lag]  # expect: TEN403
        row[:, :lag] = float("nan")
    return feats


def lag_features_safe(series: torch.Tensor, lags=(1, 2, 7)) -> torch.Tensor:
    feats = series.unsqueeze(1).repeat(1, len(lags) + 1, 1)
    for i, lag in enumerate(lags, start=1):
        feats[:, i, lag:] = series[:, :-lag]  # ok
        feats[:, i, :lag] = float("nan")
    return feats


def lag_even_channel(interleaved: torch.Tensor) -> torch.Tensor:
    """Columns alternate (demand, price); lag only the demand channel by one period."""
    out = interleaved.clone()
    out[:, 2::2] = out[:, :-2:2]  # expect: TEN403
    out[:, 0] = 0.0
    return out


def hold_upsample(x: torch.Tensor) -> torch.Tensor:
    up = torch.zeros(x.shape[0], 2 * x.shape[1])
    up[:, 0::2] = x
    up[:, 1::2] = up[:, 0::2]  # ok
    return up


def smooth_inplace(x: torch.Tensor) -> torch.Tensor:
    x[:, 1:] = 0.5 * (x[:, 1:] + x[:, :-1])  # ok
    return x


class Forecaster(nn.Module):
    def __init__(self, context=96, horizon=24):
        super().__init__()
        self.context, self.horizon = context, horizon
        self.mlp = nn.Sequential(nn.Linear(context, 256), nn.ReLU(), nn.Linear(256, horizon))

    @torch.no_grad()
    def rollout(self, history: torch.Tensor, steps: int) -> torch.Tensor:
        h = self.horizon
        window = history[:, -self.context:].clone()
        preds = []
        for _ in range(steps):
            pred = self.mlp(window)
            preds.append(pred)
            tail = window[:, h:]
            window[:, :-h] = tail  # expect: TEN403
            window[:, -h:] = pred
        return torch.cat(preds, dim=1)


if __name__ == "__main__":
    s = torch.randn(5, 200).cumsum(1)
    print(torch.allclose(lag_features(s).nan_to_num(), lag_features_safe(s).nan_to_num()))
    print(lag_even_channel(torch.randn(3, 20)).shape, hold_upsample(s).shape, smooth_inplace(s.clone()).shape)
    print(Forecaster().rollout(s, 3).shape)
