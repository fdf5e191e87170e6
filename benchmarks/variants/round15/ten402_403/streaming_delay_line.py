"""Streaming multichannel audio: a sliding analysis buffer and a fractional delay line."""
import math

import torch

torch.manual_seed(0)


class SlidingBuffer:
    def __init__(self, channels, size, hop):
        self.hop = hop
        self.buffer = torch.zeros(channels, size)

    def push(self, chunk):
        self.buffer[:, :-self.hop] = self.buffer[:, self.hop:]  # expect: TEN403
        self.buffer[:, -self.hop:] = chunk  # ok
        return self.buffer


class SlidingBufferCat:
    def __init__(self, channels, size, hop):
        self.hop = hop
        self.buffer = torch.zeros(channels, size)

    def push(self, chunk):
        self.buffer = torch.cat([self.buffer[:, self.hop:], chunk], dim=1)  # ok
        return self.buffer


class DelayLine:
    """Per-sample delay of `delay` samples on a (channels, max_delay + 1) line."""

    def __init__(self, channels, max_delay, delay):
        self.line = torch.zeros(channels, max_delay + 1)
        self.delay = delay

    def tick(self, x):
        self.line[:, 1:] = self.line[:, :-1].clone()  # ok
        self.line[:, 0] = x  # ok
        return self.line[:, self.delay].clone()


def sine_chunks(channels, hop, n_chunks, sr=8000):
    t = torch.arange(hop * n_chunks) / sr
    sig = torch.stack([torch.sin(2 * math.pi * 440 * (c + 1) * t) for c in range(channels)])
    return sig.split(hop, dim=1)


if __name__ == "__main__":
    a, b = SlidingBuffer(2, 64, 16), SlidingBufferCat(2, 64, 16)
    for chunk in sine_chunks(2, 16, 8):
        ya, yb = a.push(chunk), b.push(chunk)
    print("in-place buffer matches cat buffer:", torch.allclose(ya, yb))
    d = DelayLine(2, 8, 3)
    outs = [d.tick(torch.tensor([float(i), -float(i)])) for i in range(6)]
    print("delayed:", [o[0].item() for o in outs])
