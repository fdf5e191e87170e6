import torch
from torch import nn


class TinyRegressor(nn.Module):
    def __init__(self, d_in=6, width=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(),
                                 nn.Linear(width, 1))

    def forward(self, x):
        return self.net(x)


def make_splits(seed=0, n_train=32, n_val=128, noise=0.6):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(6, 1, generator=g)

    def draw(n, eps):
        x = torch.randn(n, 6, generator=g)
        return x, torch.tanh(x @ w) + eps * torch.randn(n, 1, generator=g)

    return draw(n_train, noise), draw(n_val, 0.0)
