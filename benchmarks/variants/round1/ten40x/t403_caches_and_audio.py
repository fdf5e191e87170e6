"""Sliding-window KV cache, streaming audio buffer, cumulative features."""
import numpy as np
import torch
import torch.nn as nn


class SlidingKVCache(nn.Module):
    def __init__(self, batch, heads, window, head_dim):
        super().__init__()
        self.register_buffer("k", torch.zeros(batch, heads, window, head_dim))
        self.register_buffer("v", torch.zeros(batch, heads, window, head_dim))
        self.window = window

    def update(self, k_new, v_new):
        # k_new: (batch, heads, 1, head_dim)
        self.k[:, :, :-1] = self.k[:, :, 1:]  # expect: TEN403
        self.v[:, :, :-1] = self.v[:, :, 1:]  # expect: TEN403
        self.k[:, :, -1:] = k_new
        self.v[:, :, -1:] = v_new
        return self.k, self.v


class StreamingBuffer:
    def __init__(self, channels, size, hop):
        self.hop = hop
        self.buffer = torch.zeros(channels, size)

    def push(self, chunk):
        hop = self.hop
        self.buffer[:, :-hop] = self.buffer[:, hop:]  # expect: TEN403
        self.buffer[:, -hop:] = chunk
        return self.buffer


class NumpyInitBuffer:
    """Allocated with numpy, converted to torch right away."""

    def __init__(self, channels, size):
        self.buf = np.zeros((channels, size), dtype=np.float32)
        self.buf = torch.from_numpy(self.buf)

    def push(self, chunk, hop):
        self.buf[:, :-hop] = self.buf[:, hop:]  # expect: TEN403
        self.buf[:, -hop:] = chunk


def running_sum_bug(x: torch.Tensor):
    """Intended: pairwise sums of neighbours."""
    x[:, 1:] += x[:, :-1]  # expect: TEN403
    return x


def first_difference_bug(prices: torch.Tensor):
    prices[..., 1:] -= prices[..., :-1]  # expect: TEN403
    return prices


def pre_emphasis(wav: torch.Tensor, coef: float = 0.97):
    wav = wav.clone()
    wav[..., 1:] -= coef * wav[..., :-1]  # ok: TEN403
    return wav


def pairwise_sum_ok(x: torch.Tensor):
    x[:, 1:] += x[:, :-1].clone()  # ok: TEN403
    return x


def moving_avg_ok(x: torch.Tensor):
    x[:, 1:] = (x[:, 1:] + x[:, :-1]) / 2  # ok: TEN403
    return x


if __name__ == "__main__":
    c = SlidingKVCache(1, 2, 4, 3)
    c.update(torch.ones(1, 2, 1, 3), torch.ones(1, 2, 1, 3))
    print(StreamingBuffer(2, 8, 3).push(torch.ones(2, 3)))
    NumpyInitBuffer(2, 8).push(torch.ones(2, 2), 2)
    a = torch.arange(10.0).reshape(2, 5)
    print(running_sum_bug(a.clone()), pairwise_sum_ok(a.clone()))
    print(first_difference_bug(a.clone()), pre_emphasis(a), moving_avg_ok(a.clone()))
