"""Token-shift channel mixing (half of the channels see the previous token)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class ShiftPad(nn.Module):
    def forward(self, x):
        half = x.shape[-1] // 2
        shifted = F.pad(x[..., :half], (0, 0, 1, -1))  # ok
        return torch.cat([shifted, x[..., half:]], dim=-1)


class ShiftInPlace(nn.Module):
    def forward(self, x):
        h = x.clone()
        half = h.shape[-1] // 2
        h[:, 1:, :half] = h[:, :-1, :half]  # expect: TEN403
        h[:, 0, :half] = 0.0  # ok
        return h


class ShiftBuffer(nn.Module):
    def forward(self, x):
        half = x.shape[-1] // 2
        h = x.clone()
        h[:, 1:, :half] = x[:, :-1, :half]  # ok
        h[:, 0, :half] = 0.0  # ok
        return h


class ShiftInterleaved(nn.Module):
    """Every other channel is shifted instead of the first half."""

    def forward(self, x):
        h = x.clone()
        h[:, 1:, ::2] = h[:, :-1, ::2]  # expect: TEN403
        h[:, :1, ::2] = 0.0  # ok
        return h


class ShiftInterleavedSafe(nn.Module):
    def forward(self, x):
        h = x.clone()
        prev = x[:, :-1, ::2]
        h[:, 1:, ::2] = prev  # ok
        h[:, :1, ::2] = 0.0  # ok
        return h


class Block(nn.Module):
    def __init__(self, d, shift):
        super().__init__()
        self.shift = shift
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.ReLU(), nn.Linear(4 * d, d))
        self.norm = nn.LayerNorm(d)

    def forward(self, x):
        return x + self.ff(self.shift(self.norm(x)))


def main():
    x = torch.randn(3, 10, 16)
    ref = ShiftPad()(x)
    for shift in (ShiftInPlace(), ShiftBuffer()):
        print(f"{type(shift).__name__:14s} matches pad-based shift: {torch.allclose(shift(x), ref)}")
    a, b = ShiftInterleaved()(x), ShiftInterleavedSafe()(x)
    print("interleaved in-place vs safe max diff %.3f" % (a - b).abs().max())
    torch.manual_seed(1)
    block = Block(16, ShiftInPlace())
    y = block(x)
    y.pow(2).mean().backward()
    print("block output mean %.4f grad norm %.4f" % (y.mean().item(), block.ff[0].weight.grad.norm().item()))


if __name__ == "__main__":
    main()
