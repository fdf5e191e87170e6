# Multi-step forecasting helpers that keep short input histories per series.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class AutoRegressor(nn.Module):
    def __init__(self, lags):
        super().__init__()
        self.lin = nn.Linear(lags, 1)

    def forward(self, hist):
        return self.lin(hist).squeeze(-1)


def rollout_view(model, hist, steps):
    """hist: (series, lags) with hist[:, 0] the latest value."""
    hist = hist.clone()
    preds = []
    for _ in range(steps):
        nxt = model(hist)
        older = hist[:, :-1]
        hist[:, 1:] = older  # expect: TEN403
        hist[:, 0] = nxt  # ok
        preds.append(nxt)
    return torch.stack(preds, 1)


def rollout_clone(model, hist, steps):
    hist = hist.clone()
    preds = []
    for _ in range(steps):
        nxt = model(hist)
        older = hist[:, :-1].clone()
        hist[:, 1:] = older  # ok
        hist[:, 0] = nxt  # ok
        preds.append(nxt)
    return torch.stack(preds, 1)


def rollout_cat(model, hist, steps):
    preds = []
    for _ in range(steps):
        nxt = model(hist)
        hist = torch.cat([nxt[:, None], hist[:, :-1]], dim=1)  # ok
        preds.append(nxt)
    return torch.stack(preds, 1)


def rollout_copy(model, hist, steps):
    hist = hist.clone()
    preds = []
    for _ in range(steps):
        nxt = model(hist)
        tail = hist.narrow(1, 0, hist.shape[1] - 1)
        hist.narrow(1, 1, hist.shape[1] - 1).copy_(tail)  # expect: TEN403
        hist[:, 0] = nxt  # ok
        preds.append(nxt)
    return torch.stack(preds, 1)


def main():
    lags = 4
    t = torch.arange(120, dtype=torch.float32)
    series = torch.stack([torch.sin(t / 6), torch.cos(t / 9), torch.sin(t / 4 + 1)])
    windows = series.unfold(1, lags + 1, 1)
    x = windows[..., :lags].flip(-1).reshape(-1, lags)
    y = windows[..., lags].reshape(-1)
    model = AutoRegressor(lags)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for _ in range(300):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
    hist0 = series[:, :lags].flip(1)
    with torch.no_grad():
        ref = rollout_cat(model, hist0, 10)
        for fn in (rollout_view, rollout_clone, rollout_copy):
            print(f"{fn.__name__:14s} max diff vs cat-based rollout: {(fn(model, hist0, 10) - ref).abs().max():.4f}")


if __name__ == "__main__":
    main()
