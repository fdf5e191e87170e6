"""Online lag-feature buffer for a batch of time series (autoregressive forecaster)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
n_series, n_lags, T = 4, 6, 40
t = torch.arange(T).float()
series = torch.sin(t[None] * 0.3 + torch.arange(n_series)[:, None]) + 0.05 * torch.randn(n_series, T)
model = nn.Linear(n_lags, 1)
with torch.no_grad():
    model.weight.copy_(torch.linspace(0.1, 0.6, n_lags)[None])
    model.bias.zero_()

lags = torch.zeros(n_series, n_lags)
safe = torch.zeros(n_series, n_lags)
preds, preds_safe = [], []
for step in range(T):
    obs = series[:, step]
    lags[:, 1:] = lags[:, :-1]  # expect: TEN403
    lags[:, 0] = obs  # ok
    safe[:, 1:] = safe[:, :-1].clone()  # ok
    safe[:, 0] = obs  # ok
    with torch.no_grad():
        preds.append(model(lags).squeeze(1))
        preds_safe.append(model(safe).squeeze(1))
p, ps = torch.stack(preds, 1), torch.stack(preds_safe, 1)
print("lag buffer tail", [round(v, 4) for v in lags[0].tolist()])
print("safe buffer tail", [round(v, 4) for v in safe[0].tolist()])
print("forecast mse", round(((p[:, :-1] - series[:, 1:]) ** 2).mean().item(), 6),
      "safe", round(((ps[:, :-1] - series[:, 1:]) ** 2).mean().item(), 6))
