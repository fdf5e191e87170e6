"""Sliding-window KV cache for incremental decoding with a tiny attention layer."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SlidingKVCache:
    def __init__(self, batch, heads, window, dim):
        self.k = torch.zeros(batch, heads, window, dim)
        self.v = torch.zeros(batch, heads, window, dim)
        self.filled = 0

    def append(self, k_new, v_new):
        W = self.k.shape[2]
        if self.filled == W:
            self.k[:, :, :-1], self.v[:, :, :-1] = self.k[:, :, 1:], self.v[:, :, 1:]  # expect: TEN403
            self.filled -= 1
        self.k[:, :, self.filled] = k_new  # ok
        self.v[:, :, self.filled] = v_new  # ok
        self.filled += 1
        return self.k[:, :, :self.filled], self.v[:, :, :self.filled]


class Attn(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h, self.dh = h, d // h
        self.qkv = nn.Linear(d, 3 * d)

    def step(self, x, cache):
        B = x.shape[0]
        q, k, v = self.qkv(x).view(B, 3, self.h, self.dh).unbind(1)
        K, V = cache.append(k, v)
        att = F.softmax((q.unsqueeze(2) @ K.transpose(-1, -2)) / self.dh ** 0.5, -1)
        return (att @ V).reshape(B, -1)


torch.manual_seed(0)
layer = Attn(16, 2)
cache = SlidingKVCache(2, 2, 4, 8)
x = torch.randn(2, 16)
outs = []
with torch.no_grad():
    for t in range(10):
        x = torch.tanh(layer.step(x, cache) + 0.1 * torch.randn(2, 16))
        outs.append(x.norm().item())
print("output norms", [round(o, 5) for o in outs])
print("cache k checksum", round(cache.k.sum().item(), 6))
