"""Feature engineering for a sequence-to-one demand forecaster."""
import torch
import torch.nn as nn


def lagged(x, lag=1, fill=0.0):
    out = torch.full_like(x, fill)
    out[:, lag:] = x[:, :-lag]  # ok
    return out


def add_calendar(feats, day_of_week):
    # feats: (B, T, 4); first two slots are placeholders for the "previous" pair
    feats[..., :2] = feats[..., 2:4]  # ok
    feats[..., 2] = torch.sin(2 * torch.pi * day_of_week / 7)
    feats[..., 3] = torch.cos(2 * torch.pi * day_of_week / 7)
    return feats


def build_inputs(sales, day_of_week):
    """sales: (B, T). Returns (B, T, 4) [sales, lag1, dow_sin, dow_cos]."""
    lag1 = sales.clone()
    lag1[:, 1:] = lag1[:, :-1]  # expect: TEN403
    lag1[:, 0] = 0.0
    dow = day_of_week.float()
    return torch.stack([sales, lag1, torch.sin(2 * torch.pi * dow / 7), torch.cos(2 * torch.pi * dow / 7)], -1)


class Forecaster(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.rnn = nn.GRU(4, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        h, _ = self.rnn(x)
        return self.head(h[:, -1])


if __name__ == "__main__":
    sales = torch.arange(1.0, 9.0).repeat(2, 1)
    dow = torch.arange(8).repeat(2, 1) % 7
    x = build_inputs(sales, dow)
    print("lag1 column:", x[0, :, 1].tolist(), "expected:", lagged(sales)[0].tolist())
    print("forecast shape:", tuple(Forecaster()(x).shape))
