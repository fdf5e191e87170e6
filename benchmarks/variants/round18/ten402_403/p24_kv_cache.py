"""Sliding-window KV caches for incremental attention decoding."""
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

B, HEADS, WINDOW, D = 2, 2, 6, 4


class SlidingKVCache:
    def __init__(self):
        self.k = torch.zeros(B, HEADS, WINDOW, D)
        self.v = torch.zeros(B, HEADS, WINDOW, D)
        self.filled = 0

    def append(self, k_new, v_new):
        if self.filled < WINDOW:
            self.k[:, :, self.filled] = k_new  # ok
            self.v[:, :, self.filled] = v_new
            self.filled += 1
        else:
            self.k[:, :, :-1] = self.k[:, :, 1:]  # expect: TEN403
            self.v[:, :, :-1].copy_(self.v[:, :, 1:])  # expect: TEN403
            self.k[:, :, -1] = k_new  # ok
            self.v[:, :, -1] = v_new
        return self.k[:, :, :self.filled], self.v[:, :, :self.filled]


class ConcatKVCache:
    def __init__(self):
        self.k = torch.zeros(B, HEADS, 0, D)
        self.v = torch.zeros(B, HEADS, 0, D)

    def append(self, k_new, v_new):
        self.k = torch.cat([self.k, k_new.unsqueeze(2)], dim=2)[:, :, -WINDOW:]  # ok
        self.v = torch.cat([self.v, v_new.unsqueeze(2)], dim=2)[:, :, -WINDOW:]  # ok
        return self.k, self.v


class RotatingKVCache:
    """Writes into a ring slot and reorders on read."""

    def __init__(self):
        self.k = torch.zeros(B, HEADS, WINDOW, D)
        self.v = torch.zeros(B, HEADS, WINDOW, D)
        self.pos = 0

    def append(self, k_new, v_new):
        slot = self.pos % WINDOW
        self.k[:, :, slot] = k_new  # ok
        self.v[:, :, slot] = v_new
        self.pos += 1
        n = min(self.pos, WINDOW)
        order = torch.arange(self.pos - n, self.pos) % WINDOW
        return self.k[:, :, order], self.v[:, :, order]


def decode(cache, steps=10):
    torch.manual_seed(1)
    outs = []
    for _ in range(steps):
        q, k, v = torch.randn(3, B, HEADS, D)
        ks, vs = cache.append(k, v)
        outs.append(F.scaled_dot_product_attention(q.unsqueeze(2), ks, vs).squeeze(2))
    return torch.stack(outs)


if __name__ == "__main__":
    ref = decode(ConcatKVCache())
    for cache in (SlidingKVCache(), RotatingKVCache()):
        print(type(cache).__name__, "max err vs concat:", (decode(cache) - ref).abs().max().item())
