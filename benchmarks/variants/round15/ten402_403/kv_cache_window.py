"""Sliding-window KV cache for incremental decoding (B, H, T, D)."""
import torch
import torch.nn.functional as F

torch.manual_seed(0)


class SlidingKVCache:
    def __init__(self, batch, heads, window, head_dim):
        self.window = window
        self.k = torch.zeros(batch, heads, window, head_dim)
        self.v = torch.zeros(batch, heads, window, head_dim)
        self.len = 0

    def append(self, k, v):
        n = k.size(2)
        overflow = self.len + n - self.window
        if overflow > 0:
            keep = self.len - overflow
            self.k[:, :, :keep] = self.k[:, :, overflow:self.len]  # expect: TEN403
            self.v[:, :, :-overflow] = self.v[:, :, overflow:]  # expect: TEN403
            self.len = keep
        self.k[:, :, self.len:self.len + n] = k  # ok
        self.v[:, :, self.len:self.len + n] = v  # ok
        self.len += n
        return self.k[:, :, :self.len], self.v[:, :, :self.len]


class ConcatKVCache:
    def __init__(self, window):
        self.window, self.k, self.v = window, None, None

    def append(self, k, v):
        self.k = k if self.k is None else torch.cat([self.k, k], 2)[:, :, -self.window:]  # ok
        self.v = v if self.v is None else torch.cat([self.v, v], 2)[:, :, -self.window:]  # ok
        return self.k, self.v


def decode(cache, steps=7, B=2, H=2, D=4):
    torch.manual_seed(1)
    outs = []
    for _ in range(steps):
        q, k, v = torch.randn(3, B, H, 1, D).unbind(0)
        ks, vs = cache.append(k, v)
        outs.append(F.scaled_dot_product_attention(q, ks, vs))
    return torch.cat(outs, 2)


if __name__ == "__main__":
    a, b = decode(SlidingKVCache(2, 2, 4, 4)), decode(ConcatKVCache(4))
    print("sliding in-place cache matches concat cache:", torch.allclose(a, b))
