"""Sliding-window KV cache for incremental decoding, Megatron-style
sequence-first layout: (seq, batch, heads, head_dim)."""
import torch
import torch.nn as nn


class SlidingKVCache:
    def __init__(self, window, batch, heads, head_dim, dtype=torch.float32, device="cpu"):
        self.window = window
        self.k = torch.zeros(window, batch, heads, head_dim, dtype=dtype, device=device)
        self.v = torch.zeros_like(self.k)
        self.length = 0

    def append(self, k_new, v_new):
        t = k_new.shape[0]
        overflow = self.length + t - self.window
        if overflow > 0:
            n = overflow
            self.k[:-n], self.v[:-n] = self.k[n:], self.v[n:]  # expect: TEN403
            self.length -= n
        self.k[self.length:self.length + t] = k_new
        self.v[self.length:self.length + t] = v_new
        self.length += t
        return self.k[: self.length], self.v[: self.length]


class CachedSelfAttention(nn.Module):
    def __init__(self, d_model=32, heads=4):
        super().__init__()
        self.heads = heads
        self.hd = d_model // heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, cache):
        # x: (t, batch, d_model)
        t, b, _ = x.shape
        q, k, v = self.qkv(x).view(t, b, 3, self.heads, self.hd).unbind(2)
        keys, values = cache.append(k, v)
        scores = torch.einsum("tbhd,sbhd->bhts", q, keys) / self.hd ** 0.5
        ctx = torch.einsum("bhts,sbhd->tbhd", scores.softmax(-1), values)
        return self.out(ctx.reshape(t, b, -1))


if __name__ == "__main__":
    torch.manual_seed(0)
    attn = CachedSelfAttention()
    cache = SlidingKVCache(window=8, batch=2, heads=4, head_dim=8)
    with torch.no_grad():
        for step in range(12):
            y = attn(torch.randn(1, 2, 32), cache)
    print("decoded 12 steps, cache length", cache.length, tuple(y.shape))
