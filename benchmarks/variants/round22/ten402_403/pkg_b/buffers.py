"""Streaming buffers built on the shift helpers."""
import torch

from . import shifting


class MelStream:
    """Keeps the last T mel frames, time-major (T, n_mels)."""

    def __init__(self, t, n_mels):
        self.frames = torch.zeros(t, n_mels)

    def push(self, frames):
        k = frames.size(0)
        shifting.drop_oldest_(self.frames, k)
        self.frames[-k:] = frames  # ok
        return self.frames


class TapDelay:
    """Multi-channel tapped delay line, newest sample at index 0 of the last dim."""

    def __init__(self, channels, taps):
        self.z = torch.zeros(channels, taps)

    def push(self, x):
        shifting.shift_right_(self.z, 1)
        self.z[:, 0] = x
        return self.z


class LagFeatures:
    def __init__(self, batch, length, lag, safe):
        self.buf = torch.zeros(batch, length)
        self.lag, self.safe = lag, safe

    def push(self, x):
        (shifting.delay_safe_ if self.safe else shifting.delay_)(self.buf, self.lag)
        self.buf[:, :self.lag] = x[:, None]
        return self.buf


class PingPong:
    """Alternates between two tensors so the helper never sees one tensor twice."""

    def __init__(self, batch, length):
        self.a = torch.zeros(batch, length)
        self.b = torch.zeros(batch, length)

    def push(self, x):
        shifting.copy_block_(self.b, self.a, 1)
        self.b[:, 0] = x
        self.a, self.b = self.b, self.a
        return self.a


class TokenHistory:
    """Previous token ids per sequence (B, T), newest first."""

    def __init__(self, batch, t):
        self.ids = torch.zeros(batch, t, dtype=torch.long)

    def push(self, tok):
        self.ids = torch.cat([tok[:, None], self.ids[:, :-1]], dim=1)  # ok
        return self.ids
