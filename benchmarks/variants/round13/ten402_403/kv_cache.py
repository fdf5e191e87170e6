"""Key/value caches for incremental decoding with a fixed attention window."""
import math

import torch
import torch.nn.functional as F


class SlidingKVCache:
    """Sequence-first layout (window, batch, heads, dim); oldest entry at index 0."""

    def __init__(self, window, batch, heads, dim):
        self.k = torch.zeros(window, batch, heads, dim)
        self.v = torch.zeros(window, batch, heads, dim)
        self.filled = 0

    def _evict_oldest_keys(self):
        self.k[:-1] = self.k[1:]  # expect: TEN403

    def _evict_oldest_values(self):
        newer = self.v[1:]
        self.v[:-1] = newer  # expect: TEN403

    def append(self, k_new, v_new):
        if self.filled == self.k.shape[0]:
            self._evict_oldest_keys()
            self._evict_oldest_values()
            self.k[-1] = k_new  # ok
            self.v[-1] = v_new  # ok
        else:
            self.k[self.filled] = k_new
            self.v[self.filled] = v_new
            self.filled += 1

    def view(self):
        return self.k[: self.filled], self.v[: self.filled]


class RingKVCache:
    """Same window, but entries are written at a moving pointer; nothing is shifted."""

    def __init__(self, window, batch, heads, dim):
        self.k = torch.zeros(window, batch, heads, dim)
        self.v = torch.zeros(window, batch, heads, dim)
        self.ptr = 0
        self.count = 0

    def append(self, k_new, v_new):
        self.k[self.ptr] = k_new  # ok
        self.v[self.ptr] = v_new
        self.ptr = (self.ptr + 1) % self.k.shape[0]
        self.count = min(self.count + 1, self.k.shape[0])

    def view(self):
        if self.count < self.k.shape[0]:
            return self.k[: self.count], self.v[: self.count]
        k = torch.cat((self.k[self.ptr:], self.k[: self.ptr]))  # ok
        v = torch.cat((self.v[self.ptr:], self.v[: self.ptr]))  # ok
        return k, v


def attend(q, cache):
    """q: (batch, heads, dim) for the newest position."""
    k, v = cache.view()
    scores = torch.einsum("bhd,tbhd->bht", q, k) / math.sqrt(q.shape[-1])
    return torch.einsum("bht,tbhd->bhd", F.softmax(scores, -1), v)


def decode(cache, steps=10, seed=0):
    g = torch.Generator().manual_seed(seed)
    outs = []
    for _ in range(steps):
        q, k, v = (torch.randn(1, 2, 4, generator=g) for _ in range(3))
        cache.append(k, v)
        outs.append(attend(q, cache))
    return torch.stack(outs)


if __name__ == "__main__":
    ring = decode(RingKVCache(4, 1, 2, 4))
    print("ring decode ok", tuple(ring.shape))
    sliding = decode(SlidingKVCache(4, 1, 2, 4))
    print("max diff", (ring - sliding).abs().max().item())
