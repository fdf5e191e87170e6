import torch

torch.manual_seed(0)

# daily demand for 5 stores, 20 days
series = torch.cumsum(torch.randn(5, 20), dim=1) + 10
max_lag = 3

lags = series.unsqueeze(1).repeat(1, max_lag + 1, 1)  # (store, lag, time)
for k in range(1, max_lag + 1):
    lags[:, k, k:] = lags[:, k, :-k]  # expect: TEN403
    lags[:, k, :k] = float("nan")  # ok

lags_ok = torch.full((5, max_lag + 1, 20), float("nan"))
lags_ok[:, 0] = series  # ok
for k in range(1, max_lag + 1):
    lags_ok[:, k, k:] = series[:, :-k]  # ok

valid = ~torch.isnan(lags_ok)
print("in-place lags, store 0, day 10:", [round(v, 4) for v in lags[0, :, 10].tolist()])
print("reference lags, store 0, day 10:", [round(v, 4) for v in lags_ok[0, :, 10].tolist()])
print("mismatches", int((lags[valid] != lags_ok[valid]).sum()))
