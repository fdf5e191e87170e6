"""Autoregressive forecasting windows and temporal-ensembling prediction histories."""
import torch
from torch import nn

torch.manual_seed(0)


class Forecaster(nn.Module):
    def __init__(self, lookback, feats):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(0), nn.Linear(lookback * feats, 16), nn.Tanh(), nn.Linear(16, feats))


@torch.no_grad()
def rollout(model, history, horizon):
    """history: (lookback, feats) for a single series."""
    window = history.clone()
    preds = []
    for _ in range(horizon):
        y = model.net(window)
        window[:-1] = window[1:]  # expect: TEN403
        window[-1] = y
        preds.append(y)
    return torch.stack(preds)


@torch.no_grad()
def rollout_roll(model, history, horizon):
    window = history.clone()
    preds = []
    for _ in range(horizon):
        y = model.net(window)
        window = window.roll(-1, dims=0)  # ok
        window[-1] = y  # ok
        preds.append(y)
    return torch.stack(preds)


class TemporalEnsemble:
    """Keeps the last K epochs of predictions, newest first: (K, N, C)."""

    def __init__(self, k, n, c):
        self.hist = torch.zeros(k, n, c)
        self.weights = torch.tensor([0.5 ** i for i in range(k)])

    def update(self, preds):
        self.hist[1:] = self.hist[:-1]  # expect: TEN403
        self.hist[0] = preds
        return torch.einsum("k,knc->nc", self.weights, self.hist) / self.weights.sum()


class TemporalEnsembleSafe(TemporalEnsemble):
    def update(self, preds):
        self.hist = torch.cat([preds[None], self.hist[:-1]])  # ok
        return torch.einsum("k,knc->nc", self.weights, self.hist) / self.weights.sum()


model = Forecaster(5, 2)
hist = torch.randn(5, 2)
print("forecast (roll):", [[round(v, 4) for v in r] for r in rollout_roll(model, hist, 4).tolist()])
try:
    print("forecast (shift):", [[round(v, 4) for v in r] for r in rollout(model, hist, 4).tolist()])
except RuntimeError as err:
    print("forecast (shift) failed:", str(err).split(".")[0])

for cls in (TemporalEnsembleSafe, TemporalEnsemble):
    te = cls(3, 2, 2)
    try:
        for epoch in range(4):
            ens = te.update(torch.full((2, 2), float(epoch + 1)))
        print(f"{cls.__name__:<21} ensemble {ens[0].tolist()}")
    except RuntimeError as err:
        print(f"{cls.__name__:<21} failed:", str(err).split(".")[0])
