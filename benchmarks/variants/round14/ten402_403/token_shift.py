"""Token-shift mixing (RWKV-style) implemented a few different ways."""
import torch
from torch import nn
import torch.nn.functional as F


class TokenShiftInplace(nn.Module):
    """Mixes each position with the previous one; writes the shift into the buffer."""

    def __init__(self, dim, shift=1):
        super().__init__()
        self.shift = shift
        self.mix = nn.Parameter(torch.full((dim,), 0.5))

    @torch.no_grad()
    def shifted(self, x):
        buf = x.clone()
        s, T = self.shift, x.shape[1]
        buf[:, s:] = buf[:, :T - s]  # expect: TEN403
        buf[:, :s] = 0  # ok
        return buf

    def forward(self, x):
        return self.mix * x + (1 - self.mix) * self.shifted(x)


class TokenShiftPad(TokenShiftInplace):
    def shifted(self, x):
        return F.pad(x, (0, 0, self.shift, -self.shift))  # ok


class TokenShiftZeros(TokenShiftInplace):
    def shifted(self, x):
        out = torch.zeros_like(x)
        out[:, self.shift:] = x[:, :-self.shift]  # ok
        return out


class HalfChannelShift(nn.Module):
    """Shift only the first half of the channels (as in some MLP-Mixer variants)."""

    def forward(self, x):
        h = x.shape[-1] // 2
        out = x.clone()
        out[:, 1:, :h] = x[:, :-1, :h]  # ok
        out[:, :1, :h] = 0  # ok
        return out


class HalfChannelShiftInplace(HalfChannelShift):
    def forward(self, x):
        h = x.shape[-1] // 2
        x = x.clone()
        x[:, 1:, :h] = x[:, :-1, :h]  # expect: TEN403
        x[:, :1, :h] = 0  # ok
        return x


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(2, 12, 8)
    ref = TokenShiftZeros(8)
    for cls in (TokenShiftInplace, TokenShiftPad, TokenShiftZeros):
        m = cls(8)
        print(f"{cls.__name__:18s} matches reference: {torch.allclose(m(x), ref(x))}")
    a, b = HalfChannelShift()(x), HalfChannelShiftInplace()(x)
    print("half-channel in-place matches:", torch.allclose(a, b))
