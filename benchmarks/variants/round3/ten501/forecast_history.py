"""Multi-step LSTM forecaster on a noisy sine; tracks how the probe forecast evolves."""
import math

import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

WINDOW, HORIZON = 48, 12


class Forecaster(nn.Module):
    def __init__(self, hidden=64, layers=2):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, layers, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x, future=0):
        out, state = self.lstm(x)
        y = self.head(out[:, -1:])
        preds = y
        for _ in range(future):
            out, state = self.lstm(y, state)
            y = self.head(out)
            preds = torch.cat((preds, y), dim=1)
        return preds


def make_series(n=5000, noise=0.1):
    t = torch.arange(n, dtype=torch.float32)
    return torch.sin(2 * math.pi * t / 50) + 0.5 * torch.sin(2 * math.pi * t / 13) + noise * torch.randn(n)


def windows(series):
    xs, ys = [], []
    for i in range(len(series) - WINDOW - HORIZON):
        xs.append(series[i:i + WINDOW])
        ys.append(series[i + WINDOW:i + WINDOW + HORIZON])
    return torch.stack(xs).unsqueeze(-1), torch.stack(ys)


def main(epochs=30, lr=3e-3):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    series = make_series()
    x, y = windows(series[:4000])
    loader = DataLoader(TensorDataset(x, y), batch_size=128, shuffle=True)
    probe_x = series[4000:4000 + WINDOW].view(1, WINDOW, 1).to(device)
    probe_y = series[4000 + WINDOW:4000 + WINDOW + HORIZON]

    model = Forecaster().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    pred_history = torch.empty(0, HORIZON, device=device)

    for epoch in range(epochs):
        model.train()
        epoch_loss = 0.0
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            pred = model(xb, future=HORIZON - 1).squeeze(-1)
            loss = F.mse_loss(pred, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            epoch_loss += loss.item() * xb.size(0)
        # keep the forecast for a fixed probe window to visualise convergence
        pred_history = torch.cat((pred_history, model(probe_x, future=HORIZON - 1).squeeze(-1)))  # expect: TEN501
        print(f"epoch {epoch:3d} mse {epoch_loss / len(loader.dataset):.5f}")

    hist = pred_history.detach().cpu()
    fig, ax = plt.subplots(figsize=(7, 3))
    for i in range(0, len(hist), 5):
        ax.plot(hist[i].numpy(), alpha=0.3 + 0.7 * i / len(hist), color="tab:blue")
    ax.plot(probe_y.numpy(), "k--", label="truth")
    ax.legend()
    fig.savefig("forecast_evolution.png", dpi=120)


if __name__ == "__main__":
    main()
