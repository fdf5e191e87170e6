"""Sliding-window KV cache for incremental decoding with a fixed window."""
import torch

torch.manual_seed(0)


class SlidingKVCache:
    def __init__(self, batch, heads, window, dim):
        self.k = torch.zeros(batch, heads, window, dim)
        self.v = torch.zeros(batch, heads, window, dim)

    def append(self, k_new, v_new):
        self.k[:, :, :-1] = self.k[:, :, 1:]  # expect: TEN403
        self.v[:, :, :-1] = self.v[:, :, 1:].clone()  # ok
        self.k[:, :, -1:] = k_new  # ok
        self.v[:, :, -1:] = v_new  # ok


class RightAlignedKVCache(SlidingKVCache):
    """Newest token at position 0."""

    def append(self, k_new, v_new):
        self.k[:, :, 1:].copy_(self.k[:, :, :-1])  # expect: TEN403
        self.v.copy_(torch.roll(self.v, 1, dims=2))  # ok
        self.k[:, :, :1].copy_(k_new)  # ok
        self.v[:, :, :1].copy_(v_new)  # ok


def attend(cache, q):
    att = (q @ cache.k.transpose(-1, -2)).softmax(-1)
    return att @ cache.v


def decode(cache_cls, steps=7):
    g = torch.Generator().manual_seed(2)
    cache = cache_cls(2, 2, 4, 8)
    out = 0.0
    for _ in range(steps):
        k = torch.randn(2, 2, 1, 8, generator=g)
        v = torch.randn(2, 2, 1, 8, generator=g)
        cache.append(k, v)
        out += attend(cache, k).pow(2).sum().item()
    return out, cache.k.sum().item()


if __name__ == "__main__":
    for cls in (SlidingKVCache, RightAlignedKVCache):
        o, s = decode(cls)
        print(cls.__name__, f"{o:.5f} {s:.5f}")
