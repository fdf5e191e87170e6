"""Sliding-window attention with a fixed-size key/value cache for decoding."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SlidingKVCache:
    def __init__(self, batch, heads, window, head_dim, dtype=torch.float32):
        self.window = window
        self.k = torch.zeros(batch, heads, window, head_dim, dtype=dtype)
        self.v = torch.zeros(batch, heads, window, head_dim, dtype=dtype)
        self.pos = torch.full((window,), -1, dtype=torch.long)
        self.length = 0

    def append(self, k_t, v_t, position):
        """k_t, v_t: (B, H, 1, D) for a single decoding step."""
        if self.length < self.window:
            i = self.length
            self.length += 1
        else:
            # evict the oldest entry by shifting everything one slot left
            self.k[:, :, :-1].copy_(self.k[:, :, 1:])  # expect: TEN403
            self.v[:, :, :-1], self.pos[:-1] = self.v[:, :, 1:], self.pos[1:]  # expect: TEN403
            i = self.window - 1
        self.k[:, :, i] = k_t[:, :, 0]
        self.v[:, :, i] = v_t[:, :, 0]
        self.pos[i] = position

    def view(self):
        n = self.length
        return self.k[:, :, :n], self.v[:, :, :n], self.pos[:n]


class DecoderSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.h = n_heads
        self.d = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def step(self, x_t, cache, position):
        """x_t: (B, 1, d_model)."""
        b = x_t.shape[0]
        q, k, v = self.qkv(x_t).view(b, 1, 3, self.h, self.d).permute(2, 0, 3, 1, 4)
        cache.append(k, v, position)
        keys, values, _ = cache.view()
        att = (q @ keys.transpose(-1, -2)) / math.sqrt(self.d)
        y = F.softmax(att, dim=-1) @ values
        return self.out(y.transpose(1, 2).reshape(b, 1, -1))


@torch.no_grad()
def decode(layer, x, window):
    b, t, _ = x.shape
    cache = SlidingKVCache(b, layer.h, window, layer.d)
    outs = [layer.step(x[:, i:i + 1], cache, i) for i in range(t)]
    return torch.cat(outs, dim=1), cache.pos.tolist()


if __name__ == "__main__":
    torch.manual_seed(0)
    attn = DecoderSelfAttention(16, 2)
    y, positions = decode(attn, torch.randn(1, 10, 16), window=4)
    print(y.shape, positions)
