"""Online inference for a load-forecasting model: lag features + a rolling input window."""
import torch
import torch.nn as nn

N_LAGS = 24
WINDOW = 96
HORIZON = 6


class Forecaster(nn.Module):
    def __init__(self, n_lags=N_LAGS, window=WINDOW, horizon=HORIZON, hidden=128):
        super().__init__()
        self.gru = nn.GRU(1, hidden, batch_first=True)
        self.lag_proj = nn.Linear(n_lags, hidden)
        self.head = nn.Linear(2 * hidden, horizon)

    def forward(self, window, lags):
        _, h = self.gru(window.unsqueeze(-1))
        z = torch.cat([h[-1], torch.relu(self.lag_proj(lags))], dim=-1)
        return self.head(z)


class OnlineState:
    """Per-meter state: lags are newest-first, window is oldest-first."""

    def __init__(self, n_meters, device="cpu"):
        self.n = N_LAGS
        self.k = HORIZON
        self.lags = torch.zeros(n_meters, N_LAGS, device=device)
        self.window = torch.zeros(n_meters, WINDOW, device=device)

    def push_reading(self, value):
        """value: (n_meters,) newest hourly reading."""
        n = self.n
        self.lags[:, 1:n] = self.lags[:, 0:n - 1]  # expect: TEN403
        self.lags[:, 0] = value

    def push_block(self, block):
        """block: (n_meters, HORIZON) readings that arrived since the last forecast."""
        k = self.k
        self.window[:, :-k] = self.window[:, k:]  # expect: TEN403
        self.window[:, -k:] = block
        for t in range(k):
            self.push_reading(block[:, t])


@torch.no_grad()
def serve(model, stream, n_meters, device="cpu"):
    """stream yields (n_meters, HORIZON) blocks; yields forecasts for the next HORIZON hours."""
    model.eval()
    state = OnlineState(n_meters, device)
    mean, std = None, None
    for block in stream:
        block = block.to(device)
        if mean is None:
            mean, std = block.mean(), block.std().clamp_min(1e-3)
        state.push_block((block - mean) / std)
        pred = model(state.window, state.lags)
        yield pred * std + mean


if __name__ == "__main__":
    model = Forecaster()
    fake_stream = (torch.rand(8, HORIZON) * 100 for _ in range(50))
    for i, f in enumerate(serve(model, fake_stream, n_meters=8)):
        if i % 10 == 0:
            print(i, f[0].tolist())
