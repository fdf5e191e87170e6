"""Autoregressive multi-step forecasting with a GRU over a rolling input window."""
import torch
import torch.nn as nn


class GRUForecaster(nn.Module):
    def __init__(self, n_features, hidden=32):
        super().__init__()
        self.gru = nn.GRU(n_features, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, n_features)

    def forward(self, window):
        out, _ = self.gru(window)
        return self.proj(out[:, -1])


def make_windows(series, lookback):
    xs = torch.stack([series[i:i + lookback] for i in range(len(series) - lookback)])
    ys = series[lookback:]
    return xs, ys


def fit(model, series, lookback, epochs=30, device="cpu"):
    x, y = make_windows(series, lookback)
    split = int(0.8 * len(x))
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    best_loss, best_state = float("inf"), None
    for epoch in range(epochs):
        model.train()
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x[:split]), y[:split])
        loss.backward()
        opt.step()
        model.eval()
        with torch.no_grad():
            val = nn.functional.mse_loss(model(x[split:]), y[split:]).item()
        if val < best_loss:
            best_loss = val
            best_state = {k: v.to(device) for k, v in model.state_dict().items()}  # expect: TEN402
    model.load_state_dict(best_state)
    return best_loss


class RollingForecaster:
    def __init__(self, model, seed_window):
        self.model = model
        self.history = seed_window.clone()  # (lookback, features)

    @torch.no_grad()
    def forecast(self, horizon):
        preds = []
        for _ in range(horizon):
            nxt = self.model(self.history.unsqueeze(0))[0]
            preds.append(nxt)
            older = self.history[1:]
            self.history[:-1] = older  # expect: TEN403
            self.history[-1] = nxt
        return torch.stack(preds)


if __name__ == "__main__":
    torch.manual_seed(0)
    t = torch.arange(200, dtype=torch.float32)
    series = torch.stack([torch.sin(t / 8), torch.cos(t / 13)], dim=-1)
    net = GRUForecaster(2)
    print(fit(net, series, lookback=16, epochs=5))
    roller = RollingForecaster(net, series[-16:])
    print(roller.forecast(5).shape)
