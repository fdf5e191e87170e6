"""Schroeder-style reverb pieces with shift-register delay lines done safely."""
import math

import torch


class Allpass:
    """y[n] = -g x[n] + v[n - D] ; v[n] = x[n] + g v[n - D]"""

    def __init__(self, delay, g=0.5):
        self.g = g
        self.buf = torch.zeros(delay)

    def tick(self, x):
        delayed = self.buf[-1].item()
        v = x + self.g * delayed
        self.buf[1:] = self.buf[:-1].clone()  # ok: source cloned first
        self.buf[0] = v
        return -self.g * v + delayed


class DoubleBufferedDelay:
    """Shift register implemented with two tensors swapped every sample."""

    def __init__(self, delay, channels):
        self.front = torch.zeros(channels, delay)
        self.back = torch.zeros(channels, delay)

    def tick(self, x):
        out = self.front[:, -1].clone()
        self.back[:, 1:] = self.front[:, :-1]  # ok: different tensors
        self.back[:, 0] = x
        self.front, self.back = self.back, self.front
        return out


class MultiTapDelay:
    def __init__(self, taps, gains):
        self.taps = list(taps)
        self.gains = torch.tensor(gains)
        self.line = torch.zeros(max(self.taps) + 1)

    def tick(self, x):
        snapshot = self.line.clone()
        self.line[1:] = snapshot[:-1]  # ok: slice of a fresh copy
        self.line[0] = x
        return (self.line[self.taps] * self.gains).sum()


def reverb(signal, sr=8000):
    comb_like = MultiTapDelay([int(0.011 * sr), int(0.017 * sr), int(0.023 * sr)], [0.5, 0.35, 0.25])
    ap1, ap2 = Allpass(int(0.005 * sr)), Allpass(int(0.0017 * sr))
    stereo = DoubleBufferedDelay(int(0.003 * sr), channels=2)
    out = []
    for x in signal.tolist():
        y = comb_like.tick(x).item() + x
        y = ap2.tick(ap1.tick(y))
        out.append(stereo.tick(torch.tensor([y, -y])))
    return torch.stack(out)


if __name__ == "__main__":
    t = torch.arange(300) / 8000
    burst = torch.sin(2 * math.pi * 220 * t) * (t < 0.01)
    wet = reverb(burst)
    print(wet.shape, wet.abs().max())
