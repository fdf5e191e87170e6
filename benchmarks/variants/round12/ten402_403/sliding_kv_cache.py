"""Sliding-window KV cache for local-attention decoding."""
import torch
import torch.nn.functional as F

WINDOW = 256


class SlidingKVCache:
    def __init__(self, batch, n_heads, head_dim, dtype=torch.float16, device="cuda"):
        shape = (batch, n_heads, WINDOW, head_dim)
        self.k = torch.zeros(shape, dtype=dtype, device=device)
        self.v = torch.zeros(shape, dtype=dtype, device=device)
        self.filled = 0

    def append_one(self, k_new, v_new):
        """k_new, v_new: (batch, heads, 1, head_dim)."""
        if self.filled < WINDOW:
            self.k[:, :, self.filled] = k_new[:, :, 0]
            self.v[:, :, self.filled] = v_new[:, :, 0]
            self.filled += 1
        else:
            self.k[:, :, :-1], self.v[:, :, :-1] = self.k[:, :, 1:], self.v[:, :, 1:]  # expect: TEN403
            self.k[:, :, -1] = k_new[:, :, 0]
            self.v[:, :, -1] = v_new[:, :, 0]
        return self.k[:, :, : self.filled], self.v[:, :, : self.filled]

    def append_many(self, k_new, v_new):
        """Append t tokens at once (t <= WINDOW)."""
        t = k_new.shape[2]
        overflow = max(0, self.filled + t - WINDOW)
        if overflow:
            self.k[:, :, :-overflow] = self.k[:, :, overflow:]  # either
            self.v[:, :, :-overflow] = self.v[:, :, overflow:].clone()  # ok
            self.filled -= overflow
        self.k[:, :, self.filled:self.filled + t] = k_new
        self.v[:, :, self.filled:self.filled + t] = v_new
        self.filled += t
        return self.k[:, :, : self.filled], self.v[:, :, : self.filled]


class ConcatKVCache:
    """Reference implementation that allocates new tensors instead."""

    def __init__(self):
        self.k = None
        self.v = None

    def append(self, k_new, v_new):
        if self.k is None:
            self.k, self.v = k_new, v_new
        else:
            self.k = torch.cat([self.k, k_new], dim=2)[:, :, -WINDOW:]  # ok
            self.v = torch.cat([self.v, v_new], dim=2)[:, :, -WINDOW:]
        return self.k, self.v


def attend(q, cache_k, cache_v):
    return F.scaled_dot_product_attention(q, cache_k, cache_v)


def decode(step_fn, cache: SlidingKVCache, x0, n_tokens):
    x = x0
    outs = []
    for _ in range(n_tokens):
        q, k, v = step_fn(x)
        ks, vs = cache.append_one(k, v)
        x = attend(q, ks, vs)
        outs.append(x)
    return torch.cat(outs, dim=2)
