import torch

torch.manual_seed(0)


def add_lag_inplace(series, k):
    """series: (n_series, T). Returns series delayed by k steps, first k copied from t=0."""
    series[:, k:] = series[:, :-k]  # expect: TEN403
    series[:, :k] = series[:, :1]  # either: TEN403
    return series


def make_lag(series, k):
    lagged = torch.empty_like(series)
    lagged[:, k:] = series[:, :-k]  # ok
    lagged[:, :k] = series[:, :1]  # ok
    return lagged


ts = torch.cumsum(torch.randn(4, 12), dim=1)
feats_ok = torch.stack([ts] + [make_lag(ts, k) for k in (1, 3)], -1)
feats_bad = torch.stack([ts] + [add_lag_inplace(ts.clone(), k) for k in (1, 3)], -1)
print("lag-1 ok  ", [round(v, 4) for v in feats_ok[0, :6, 1].tolist()])
print("lag-1 bad ", [round(v, 4) for v in feats_bad[0, :6, 1].tolist()])
print("lag-3 diff %.5f" % (feats_ok[..., 2] - feats_bad[..., 2]).abs().sum().item())
