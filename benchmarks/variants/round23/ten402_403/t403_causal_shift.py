"""Causal 'shift' layer used in token-shift / time-mixing blocks (B, C, T)."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class TimeShift(nn.Module):
    def __init__(self, d, inplace):
        super().__init__()
        self.d = d
        self.inplace = inplace

    def forward(self, x):
        d = self.d
        if self.inplace:
            out = x.clone()
            out[:, :, d:] = out[:, :, :-d]  # expect: TEN403
            out[:, :, :d] = 0
            return out
        out = torch.zeros_like(x)
        out[:, :, d:] = x[:, :, :-d]  # ok
        return out


x = torch.randn(2, 4, 24)
with torch.no_grad():
    a = TimeShift(2, inplace=True)(x)
    b = TimeShift(2, inplace=False)(x)
print("in-place shift sum: %.6f" % a.sum().item())
print("reference shift sum: %.6f" % b.sum().item())
print("equal:", torch.equal(a, b))
