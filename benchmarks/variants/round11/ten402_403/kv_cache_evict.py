"""Fixed-capacity KV cache for incremental decoding with oldest-first eviction."""
import math

import torch
import torch.nn.functional as F


class SlidingKVCache:
    def __init__(self, batch, heads, head_dim, capacity=512, dtype=torch.float32):
        self.capacity = capacity
        self.evict = max(1, capacity // 8)
        self.k = torch.zeros(batch, heads, capacity, head_dim, dtype=dtype)
        self.v = torch.zeros(batch, heads, capacity, head_dim, dtype=dtype)
        self.length = 0

    def append(self, k_new, v_new):
        t = k_new.shape[2]
        if self.length + t > self.capacity:
            ev = self.evict
            self.k[:, :, :-ev], self.v[:, :, :-ev] = self.k[:, :, ev:], self.v[:, :, ev:]  # expect: TEN403
            self.length -= ev
        self.k[:, :, self.length:self.length + t] = k_new  # ok
        self.v[:, :, self.length:self.length + t] = v_new  # ok
        self.length += t

    def view(self):
        return self.k[:, :, :self.length], self.v[:, :, :self.length]


class SinkKVCache(SlidingKVCache):
    """Keeps the first `sinks` positions forever (attention sinks) and evicts after them."""

    def __init__(self, *args, sinks=4, **kwargs):
        super().__init__(*args, **kwargs)
        self.sinks = sinks

    def append(self, k_new, v_new):
        t = k_new.shape[2]
        if self.length + t > self.capacity:
            s, ev = self.sinks, self.evict
            kept_k = self.k[:, :, s + ev:self.length].clone()
            kept_v = self.v[:, :, s + ev:self.length].clone()
            self.k[:, :, s:self.length - ev] = kept_k  # ok
            self.v[:, :, s:self.length - ev] = kept_v  # ok
            self.length -= ev
        self.k[:, :, self.length:self.length + t] = k_new
        self.v[:, :, self.length:self.length + t] = v_new
        self.length += t


def decode_step(q, cache, k_new, v_new):
    cache.append(k_new, v_new)
    k, v = cache.view()
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    return F.softmax(scores, dim=-1) @ v


if __name__ == "__main__":
    cache = SlidingKVCache(2, 4, 16, capacity=64)
    sink = SinkKVCache(2, 4, 16, capacity=64)
    for _ in range(200):
        q = torch.randn(2, 4, 1, 16)
        kn, vn = torch.randn(2, 4, 1, 16), torch.randn(2, 4, 1, 16)
        out = decode_step(q, cache, kn, vn)
        out2 = decode_step(q, sink, kn, vn)
    print(out.shape, out2.shape)
