"""Incremental decoding with a fixed-size sliding-window key/value cache."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class SlidingKV:
    def __init__(self, batch, heads, window, dim):
        self.window = window
        self.k = torch.zeros(batch, heads, window, dim)
        self.v = torch.zeros(batch, heads, window, dim)
        self.filled = 0

    def append(self, k_new, v_new):
        if self.filled < self.window:
            self.k[:, :, self.filled] = k_new[:, :, 0]  # ok
            self.v[:, :, self.filled:self.filled + 1] = v_new  # ok
            self.filled += 1
        else:
            self.k[:, :, :-1] = self.k[:, :, 1:]  # expect: TEN403
            self.v[:, :, :-1].copy_(self.v[:, :, 1:])  # expect: TEN403
            self.k[:, :, -1] = k_new[:, :, 0]  # ok
            self.v[:, :, -1:] = v_new  # ok
        return self.k[:, :, :self.filled], self.v[:, :, :self.filled]


class ConcatKV:
    def __init__(self, batch, heads, window, dim):
        self.window = window
        self.k = torch.zeros(batch, heads, 0, dim)
        self.v = torch.zeros(batch, heads, 0, dim)

    def append(self, k_new, v_new):
        self.k = torch.cat([self.k, k_new], dim=2)[:, :, -self.window:]  # ok
        self.v = torch.cat([self.v, v_new], dim=2)[:, :, -self.window:]  # ok
        return self.k, self.v


class TinyAttention(nn.Module):
    def __init__(self, d_model=32, heads=4):
        super().__init__()
        self.h, self.dh = heads, d_model // heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def step(self, x, cache):
        b = x.shape[0]
        q, k, v = self.qkv(x).view(b, 1, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        keys, values = cache.append(k, v)
        att = (q @ keys.transpose(-1, -2) / math.sqrt(self.dh)).softmax(-1)
        return self.out((att @ values).transpose(1, 2).reshape(b, 1, -1))


def decode(cache_cls, steps=20, window=6):
    torch.manual_seed(4)
    attn = TinyAttention()
    x = torch.randn(2, 1, 32)
    cache = cache_cls(2, 4, window, 8)
    outs = []
    with torch.no_grad():
        for _ in range(steps):
            x = torch.tanh(attn.step(x, cache) + x)
            outs.append(x)
    return torch.cat(outs, 1)


def main():
    a = decode(SlidingKV)
    b = decode(ConcatKV)
    print("decoded shape", tuple(a.shape), "max |sliding - concat| = %.2e" % (a - b).abs().max())


if __name__ == "__main__":
    main()
