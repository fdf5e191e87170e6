"""RWKV-style token shift: half of the channels see the previous token."""
import torch
import torch.nn as nn


class TokenShiftMix(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        B, T, C = x.shape
        x = x.clone()
        x[:, 1:, : C // 2] = x[:, :-1, : C // 2]  # expect: TEN403
        x[:, :1, : C // 2] = 0  # ok
        return self.proj(x)


class TokenShiftPad(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.shift = nn.ZeroPad2d((0, 0, 1, -1))

    def forward(self, x):
        C = x.shape[-1]
        out = x.clone()
        out[:, :, : C // 2] = self.shift(x)[:, :, : C // 2]  # ok
        return self.proj(out)


torch.manual_seed(0)
a = TokenShiftMix(8)
b = TokenShiftPad(8)
b.load_state_dict(a.state_dict())
x = torch.randn(2, 6, 8)
with torch.no_grad():
    ya, yb = a(x), b(x)
print("mix out checksum", round(ya.sum().item(), 5), "pad out checksum", round(yb.sum().item(), 5))
print("max diff", round((ya - yb).abs().max().item(), 6))
