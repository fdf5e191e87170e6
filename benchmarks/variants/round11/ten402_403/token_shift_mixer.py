"""RWKV-flavoured token-shift mixing: half of the channels see the previous token."""
import torch
import torch.nn as nn


class TokenShiftInplace(nn.Module):
    """Memory-saving variant used at inference time (no autograd)."""

    def __init__(self, dim):
        super().__init__()
        self.half = dim // 2
        self.proj = nn.Linear(dim, dim)

    @torch.no_grad()
    def forward(self, x):  # x: (batch, time, dim)
        h = self.half
        x = x.clone()
        x[:, 1:, :h] = x[:, :-1, :h]  # expect: TEN403
        x[:, 0, :h] = 0
        return self.proj(x)


class TokenShift(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.half = dim // 2
        self.proj = nn.Linear(dim, dim)
        self.shift = nn.ZeroPad2d((0, 0, 1, -1))

    def forward(self, x):
        h = self.half
        shifted = self.shift(x[..., :h])
        return self.proj(torch.cat([shifted, x[..., h:]], dim=-1))


class TokenShiftInto(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.half = dim // 2
        self.proj = nn.Linear(dim, dim)

    @torch.no_grad()
    def forward(self, x):
        h = self.half
        out = torch.empty_like(x)
        out[:, 1:, :h] = x[:, :-1, :h]  # ok
        out[:, 0, :h] = 0
        out[..., h:] = x[..., h:]  # ok
        return self.proj(out)


class TokenShiftMix(nn.Module):
    """Learned interpolation between current and previous token (mu per channel)."""

    def __init__(self, dim):
        super().__init__()
        self.mu = nn.Parameter(torch.full((dim,), 0.5))

    def forward(self, x):
        prev = torch.roll(x, shifts=1, dims=1)  # ok
        prev[:, 0] = 0
        return self.mu * x + (1 - self.mu) * prev


if __name__ == "__main__":
    x = torch.randn(2, 10, 8)
    a, b, c = TokenShiftInplace(8), TokenShift(8), TokenShiftInto(8)
    b.proj.load_state_dict(a.proj.state_dict())  # ok
    c.proj.load_state_dict(a.proj.state_dict())  # ok
    print((a(x) - c(x)).abs().max(), (b(x) - c(x)).abs().max(), TokenShiftMix(8)(x).shape)
