"""Streaming audio buffers feeding a frame-level energy detector."""
import math

import torch


class SlidingWindow:
    """Keeps the last `size` samples; each push appends `hop` new samples."""

    def __init__(self, size, hop):
        assert 0 < hop <= size
        self.size, self.hop = size, hop
        self.buf = torch.zeros(size)

    def push(self, chunk):
        self.buf[:-self.hop] = self.buf[self.hop:]  # expect: TEN403
        self.buf[-self.hop:] = chunk
        return self.buf


class SlidingWindowView(SlidingWindow):
    def push(self, chunk):
        keep = self.size - self.hop
        tail = self.buf[self.hop:]
        self.buf[:keep] = tail  # expect: TEN403
        self.buf[keep:] = chunk
        return self.buf


class SlidingWindowSafe(SlidingWindow):
    def push(self, chunk):
        self.buf[:-self.hop] = self.buf[self.hop:].clone()  # ok
        self.buf[-self.hop:] = chunk  # ok
        return self.buf


class HalfOverlapWindow(SlidingWindow):
    """hop >= size / 2, so the kept region and its source never overlap."""

    def push(self, chunk):
        keep = self.size - self.hop
        self.buf[:keep] = self.buf[self.hop:]  # ok
        self.buf[keep:] = chunk  # ok
        return self.buf


class StereoWindow:
    def __init__(self, size, hop, channels=2):
        self.hop = hop
        self.buf = torch.zeros(channels, size)

    def push(self, chunk):
        self.buf[:, :-self.hop] = self.buf[:, self.hop:]  # either
        self.buf[:, -self.hop:] = chunk  # ok
        return self.buf


def tone(n, start, freq=0.05):
    t = torch.arange(start, start + n, dtype=torch.float32)
    return torch.sin(2 * math.pi * freq * t)


def stream(window, n_chunks=6):
    hop, pos, energies = window.hop, 0, []
    for _ in range(n_chunks):
        chunk = tone(hop, pos)
        if isinstance(window, StereoWindow):
            chunk = torch.stack([chunk, -chunk])
        frame = window.push(chunk)
        energies.append(round(frame.pow(2).mean().item(), 4))
        pos += hop
    return energies


if __name__ == "__main__":
    for win in (SlidingWindow(16, 4), SlidingWindowView(16, 4), SlidingWindowSafe(16, 4), HalfOverlapWindow(16, 10), StereoWindow(16, 4)):
        try:
            print(type(win).__name__, stream(win))
        except RuntimeError as err:
            print(type(win).__name__, "error:", str(err)[:60])
