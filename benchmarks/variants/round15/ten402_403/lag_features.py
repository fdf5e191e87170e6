"""Lag features for multivariate time-series forecasting."""
import torch

torch.manual_seed(0)


def make_series(n_series=4, length=24):
    t = torch.arange(length, dtype=torch.float32)
    return torch.stack([torch.sin(t / (i + 2)) + 0.05 * torch.randn(length) for i in range(n_series)])


def lag_inplace(series, lags):
    """Builds lagged copies by shifting a working tensor step by step."""
    work = series.clone()
    feats, prev = [], 0
    for lag in lags:
        step = lag - prev
        work[:, step:] = work[:, :-step]  # expect: TEN403
        work[:, :step] = float("nan")  # ok
        feats.append(work.clone())
        prev = lag
    return torch.stack(feats, -1)


def lag_features(series, lags):
    feats = []
    for lag in lags:
        lagged = torch.full_like(series, float("nan"))
        lagged[:, lag:] = series[:, :-lag]  # ok
        feats.append(lagged)
    return torch.stack(feats, -1)


def rolling_diff(series):
    return series[:, 1:] - series[:, :-1]  # ok


def fold_halves(series):
    h = series.shape[1] // 2
    out = series.clone()
    out[:, :h] = out[:, h:2 * h]  # ok
    return out


if __name__ == "__main__":
    s = make_series()
    lags = [1, 2, 3, 7]
    a, b = lag_inplace(s, lags), lag_features(s, lags)
    print("in-place lags equal reference:", torch.allclose(a.nan_to_num(), b.nan_to_num()))
    print(rolling_diff(s).shape, fold_halves(s).shape)
