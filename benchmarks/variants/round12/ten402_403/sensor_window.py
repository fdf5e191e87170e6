import torch
from torch import nn

SEQ = 32  # samples per model input
N_SENSORS = 6


class OnlineDetector:
    """Keeps a rolling window of sensor readings and scores it with a GRU."""

    def __init__(self, model: nn.Module, n_streams: int):
        self.model = model.eval()
        self.window = torch.zeros(n_streams, SEQ, N_SENSORS)
        self.mask = torch.zeros(n_streams, SEQ, dtype=torch.bool)
        self.seen = 0

    @torch.no_grad()
    def push(self, reading: torch.Tensor) -> torch.Tensor:
        """reading: (n_streams, N_SENSORS)."""
        older = self.window[:, 1:]
        self.window[:, :-1] = older  # expect: TEN403
        self.window[:, -1] = reading
        self.mask = torch.cat([self.mask[:, 1:], torch.ones_like(self.mask[:, :1])], dim=1)  # ok
        self.seen += 1
        if self.seen < SEQ:
            return torch.zeros(self.window.shape[0])
        return self.model(self.window).squeeze(-1)


class GRUScorer(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.gru = nn.GRU(N_SENSORS, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        _, h = self.gru(x)
        return torch.sigmoid(self.out(h[-1]))


def lag_features(x: torch.Tensor) -> torch.Tensor:
    """x: (batch, SEQ) -> (batch, SEQ, 3) with value, lag-1 and lag-2 copies."""
    lag1 = torch.zeros_like(x)
    lag1[:, 1:SEQ] = x[:, 0:SEQ - 1]  # ok
    lag2 = x.clone()
    lag2[:, 2:SEQ] = lag2[:, 0:SEQ - 2]  # expect: TEN403
    lag2[:, :2] = 0
    return torch.stack([x, lag1, lag2], dim=-1)


def rolling_delta_update(stats: torch.Tensor, x_new: torch.Tensor, k: int = 8) -> torch.Tensor:
    """stats: (B, 2k) = [previous window (k) | current window (k)], newest last.

    Returns the change of the window mean after pushing x_new.
    """
    stats[:, :k] = stats[:, k:2 * k]  # ok
    stats[:, k:2 * k - 1] = stats[:, 1:k]  # ok
    stats[:, 2 * k - 1] = x_new
    return stats[:, k:].mean(1) - stats[:, :k].mean(1)
