"""Lag/difference feature builders for a univariate forecasting pipeline."""
import torch


def lag_inplace(series, lag):
    """Shift a series forward by `lag` steps, padding the head with the first value."""
    head = series[0].item()
    series[lag:] = series[:-lag]  # expect: TEN403
    series[:lag] = head
    return series


def lag_copy(series, lag):
    out = series.clone()
    out[lag:] = series[:-lag]  # ok
    out[:lag] = series[0]  # ok
    return out


def rolling_lag_matrix(feats, new_values):
    """feats[:, j] holds the value j steps ago; push a new column in front."""
    feats[:, 1:] = feats[:, :-1]  # expect: TEN403
    feats[:, 0] = new_values  # ok
    return feats


def rolling_lag_matrix_roll(feats, new_values):
    feats = feats.roll(1, dims=1)  # ok
    feats[:, 0] = new_values  # ok
    return feats


def season_copy(feats, k):
    """Copy the previous season's block into the current one (disjoint columns)."""
    feats[:, :k] = feats[:, k:2 * k]  # ok
    return feats


def first_difference_inplace(series):
    series[1:] = series[1:] - series[:-1]  # ok
    return series


def second_order_smooth(series):
    series[2:] += series[:-2]  # either
    return series


def fold_halves(series):
    n = series.shape[0] // 2
    series[:n] = series[n:2 * n]  # ok
    return series


if __name__ == "__main__":
    s = torch.arange(1.0, 9.0)
    print("lag_copy:", lag_copy(s, 2).tolist())
    try:
        print("lag_inplace:", lag_inplace(s.clone(), 2).tolist())
    except RuntimeError as err:
        print("lag_inplace failed:", str(err)[:50])
    feats = torch.stack([torch.arange(4.0) + 10 * r for r in range(3)])
    a = rolling_lag_matrix(feats.clone(), torch.tensor([-1.0, -2.0, -3.0]))
    b = rolling_lag_matrix_roll(feats.clone(), torch.tensor([-1.0, -2.0, -3.0]))
    print("in-place lag matrix row0:", a[0].tolist(), "roll:", b[0].tolist())
    print("season copy:", season_copy(torch.arange(12.0).view(2, 6), 2)[0].tolist())
    print("first diff:", first_difference_inplace(s.clone()).tolist())
    try:
        print("smooth:", second_order_smooth(s.clone()).tolist())
    except RuntimeError as err:
        print("smooth failed:", str(err)[:50])
    print("fold halves:", fold_halves(torch.arange(6.0)).tolist())
