"""Audio buffers for low-latency inference.

`AudioRingBuffer` keeps a mirrored copy of its first `max_read` samples after
the end of the ring, so that any window of up to `max_read` samples can be
read as one contiguous slice without wrap-around handling.
"""
import numpy as np
import torch


class AudioRingBuffer:
    def __init__(self, channels: int, capacity: int, max_read: int, device="cpu"):
        if max_read > capacity:
            raise ValueError("max_read must not exceed capacity")
        self.capacity = capacity
        self.max_read = max_read
        self.buf = torch.zeros(channels, capacity + max_read, device=device)
        self.write_pos = 0
        self.filled = 0

    def write(self, x: torch.Tensor):
        n = x.shape[-1]
        if n > self.capacity:
            x = x[:, -self.capacity:]
            n = self.capacity
        end = self.write_pos + n
        if end <= self.capacity:
            self.buf[:, self.write_pos:end] = x
        else:
            first = self.capacity - self.write_pos
            self.buf[:, self.write_pos:self.capacity] = x[:, :first]
            self.buf[:, : n - first] = x[:, first:]
        self.buf[:, self.capacity:] = self.buf[:, : self.max_read]  # ok
        self.write_pos = end % self.capacity
        self.filled = min(self.filled + n, self.capacity)

    def read_last(self, n: int) -> torch.Tensor:
        if n > self.max_read or n > self.filled:
            raise ValueError(f"cannot read {n} samples")
        start = (self.write_pos - n) % self.capacity
        return self.buf[:, start:start + n]


class DelayLine:
    """Sample-accurate delay for the playback reference in echo cancellation (host side, NumPy)."""

    def __init__(self, delay: int, block: int):
        self.delay = delay
        self.block = block
        self.line = np.zeros(delay + block, dtype=np.float32)

    def process(self, block: np.ndarray) -> np.ndarray:
        n = len(block)
        self.line[:-n] = self.line[n:]  # ok
        self.line[-n:] = block
        return self.line[: n].copy()
