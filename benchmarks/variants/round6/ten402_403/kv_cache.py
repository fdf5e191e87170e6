"""Sliding-window key/value caches for autoregressive decoding.

Three variants of the same idea (cf. Mistral's sliding window attention
and StreamingLLM-style caches): keep at most `window` past positions.
"""
import torch
import torch.nn.functional as F


class ShiftingKVCache:
    """Stores keys and values fused as kv[2, batch, heads, window, head_dim]."""

    def __init__(self, batch, heads, window, head_dim, dtype=torch.float32, device="cpu"):
        self.window = window
        self.kv = torch.zeros(2, batch, heads, window, head_dim, dtype=dtype, device=device)
        self.length = 0

    def update(self, k, v):
        n = k.shape[2]
        if self.length + n > self.window:
            overflow = self.length + n - self.window
            self.kv[:, :, :, :-overflow] = self.kv[:, :, :, overflow:]  # expect: TEN403
            self.length -= overflow
        self.kv[0, :, :, self.length:self.length + n] = k
        self.kv[1, :, :, self.length:self.length + n] = v
        self.length += n
        return self.kv[0, :, :, :self.length], self.kv[1, :, :, :self.length]


class RollingKVCache(ShiftingKVCache):
    def update(self, k, v):
        n = k.shape[2]
        if self.length + n > self.window:
            overflow = self.length + n - self.window
            self.kv = torch.roll(self.kv, shifts=-overflow, dims=3)  # ok
            self.length -= overflow
        self.kv[0, :, :, self.length:self.length + n] = k
        self.kv[1, :, :, self.length:self.length + n] = v
        self.length += n
        return self.kv[0, :, :, :self.length], self.kv[1, :, :, :self.length]


class DoubleBufferKVCache(ShiftingKVCache):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.spare = torch.zeros_like(self.kv)

    def update(self, k, v):
        n = k.shape[2]
        if self.length + n > self.window:
            overflow = self.length + n - self.window
            self.spare[:, :, :, :-overflow] = self.kv[:, :, :, overflow:]  # ok
            self.kv, self.spare = self.spare, self.kv
            self.length -= overflow
        self.kv[0, :, :, self.length:self.length + n] = k
        self.kv[1, :, :, self.length:self.length + n] = v
        self.length += n
        return self.kv[0, :, :, :self.length], self.kv[1, :, :, :self.length]


def attend(q, k, v):
    return F.scaled_dot_product_attention(q, k, v)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, H, W, D = 1, 2, 8, 4
    caches = [cls(B, H, W, D) for cls in (ShiftingKVCache, RollingKVCache, DoubleBufferKVCache)]
    steps = [torch.randn(B, H, 1, D) for _ in range(12)]
    for x in steps:
        outs = [attend(x, *c.update(x, x)) for c in caches]
    ref = torch.cat(steps[-W:], dim=2)
    print([torch.allclose(c.kv[0, :, :, :c.length], ref) for c in caches])
