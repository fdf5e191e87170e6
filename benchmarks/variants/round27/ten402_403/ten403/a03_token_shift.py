"""RWKV-style token shift: mix each token with the previous one."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class TimeMix(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.mu = nn.Parameter(torch.rand(c))
        self.proj = nn.Linear(c, c)

    def forward(self, x, state=None):
        prev = torch.zeros_like(x)
        prev[:, 1:] = x[:, :-1]  # ok
        if state is not None:
            prev[:, :1] = state[:, None]  # ok
        return self.proj(self.mu * x + (1 - self.mu) * prev)


class TimeMixInplace(TimeMix):
    """'Saves memory' by shifting in place on a scratch copy of x."""

    def forward(self, x, state=None):
        xs = x.detach().clone()
        mixed_src = xs.clone()
        xs[:, 1:] = xs[:, :-1]  # expect: TEN403
        xs[:, :1] = state[:, None] if state is not None else 0 * xs[:, :1]  # ok
        return self.proj(self.mu * mixed_src + (1 - self.mu) * xs)


x = torch.randn(3, 6, 4)
state = torch.randn(3, 4)
torch.manual_seed(1)
a = TimeMix(4)
torch.manual_seed(1)
b = TimeMixInplace(4)
with torch.no_grad():
    ya, yb = a(x, state), b(x, state)
print("reference checksum %.5f" % ya.sum().item())
print("inplace   checksum %.5f" % yb.sum().item())
print("max abs diff %.5f" % (ya - yb).abs().max().item())
