"""Block-based Schroeder-style reverb for real-time processing."""
import numpy as np
import torch
from torch import nn


class FeedbackComb(nn.Module):
    """y[n] = x[n] + g * y[n - D], processed one block at a time."""

    def __init__(self, delay: int, gain: float = 0.7, channels: int = 2, max_block: int = 512):
        super().__init__()
        if delay < max_block:
            raise ValueError("delay must be at least one block long")
        self.delay = delay
        self.gain = gain
        self.register_buffer("line", torch.zeros(channels, delay))

    @torch.no_grad()
    def forward(self, block: torch.Tensor) -> torch.Tensor:
        n = block.shape[-1]
        D = self.delay
        out = block + self.gain * self.line[:, :n]
        self.line[:, :D - n] = self.line[:, n:D]  # expect: TEN403
        self.line[:, D - n:] = out
        return out


class Reverb(nn.Module):
    def __init__(self, sample_rate=48000, delays_ms=(29.7, 37.1, 41.1, 43.7), gain=0.75, wet=0.3):
        super().__init__()
        self.combs = nn.ModuleList(FeedbackComb(int(sample_rate * d / 1000), gain) for d in delays_ms)
        self.wet = wet

    def forward(self, block):
        acc = sum(c(block) for c in self.combs) / len(self.combs)
        return (1 - self.wet) * block + self.wet * acc


class QuadSpread(nn.Module):
    """Stereo -> quad: rear channels are the fronts delayed by `spread` samples."""

    def __init__(self, spread=240):
        super().__init__()
        self.spread = spread

    def forward(self, x):
        s = self.spread
        out = x.new_zeros(x.shape[0], 4, x.shape[-1])
        out[:, 0:2] = x
        out[:, 2:4] = out[:, 0:2]  # ok
        out[:, 3, s:] = out[:, 1, :-s]  # ok
        return out


def comb_reference(x: np.ndarray, delay: int, gain: float, block: int = 256) -> np.ndarray:
    line = np.zeros(delay, dtype=np.float32)
    y = np.zeros_like(x)
    for i in range(0, len(x) - block + 1, block):
        out = x[i:i + block] + gain * line[:block]
        line[:delay - block] = line[block:]  # ok
        line[delay - block:] = out
        y[i:i + block] = out
    return y
