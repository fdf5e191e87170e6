import torch
import torch.nn.functional as F

torch.manual_seed(0)


class SlidingKVCache:
    def __init__(self, batch, heads, window, head_dim):
        self.k = torch.zeros(batch, heads, window, head_dim)
        self.v = torch.zeros(batch, heads, window, head_dim)
        self.filled = 0
        self.window = window

    def append(self, k_t, v_t):
        if self.filled < self.window:
            self.k[:, :, self.filled] = k_t  # ok
            self.v[:, :, self.filled] = v_t  # ok
            self.filled += 1
            return
        self.k[:, :, :-1] = self.k[:, :, 1:]  # expect: TEN403
        self.v[:, :, :-1].copy_(self.v[:, :, 1:].clone())  # ok
        self.k[:, :, -1] = k_t  # ok
        self.v[:, :, -1] = v_t  # ok

    def attend(self, q):
        k, v = self.k[:, :, :self.filled], self.v[:, :, :self.filled]
        return F.scaled_dot_product_attention(q, k, v)


class PrependKVCache(SlidingKVCache):
    """Newest entry at index 0."""

    def append(self, k_t, v_t):
        self.k[:, :, 1:] = self.k[:, :, :-1].clone()  # ok
        v_old = self.v[:, :, :-1]
        self.v[:, :, 1:] = v_old  # expect: TEN403
        self.k[:, :, 0] = k_t  # ok
        self.v[:, :, 0] = v_t  # ok
        self.filled = min(self.filled + 1, self.window)


for cls in (SlidingKVCache, PrependKVCache):
    torch.manual_seed(2)
    cache = cls(2, 2, 4, 8)
    outs = []
    for t in range(7):
        k_t, v_t, q = torch.randn(2, 2, 8), torch.randn(2, 2, 8), torch.randn(2, 2, 1, 8)
        cache.append(k_t, v_t)
        outs.append(cache.attend(q).norm().item())
    print(cls.__name__, [round(o, 4) for o in outs])
