"""A fixed-size key/value cache for autoregressive decoding (B, H, T, D)."""
import torch

torch.manual_seed(0)


class SlidingKVCache:
    """Newest entry at the end; oldest entry falls off the front."""

    def __init__(self, b, h, t, d):
        self.k = torch.zeros(b, h, t, d)
        self.v = torch.zeros(b, h, t, d)

    def append(self, k_new, v_new):
        self.k[:, :, :-1] = self.k[:, :, 1:]  # either: TEN403
        self.v[:, :, :-1] = self.v[:, :, 1:].clone()  # ok
        self.k[:, :, -1] = k_new
        self.v[:, :, -1] = v_new


class PrependKVCache(SlidingKVCache):
    """Newest entry at the front (some codebases keep it this way)."""

    def append(self, k_new, v_new):
        self.k[:, :, 1:] = self.k[:, :, :-1]  # expect: TEN403
        self.v = torch.cat([v_new.unsqueeze(2), self.v[:, :, :-1]], dim=2)  # ok
        self.k[:, :, 0] = k_new


for cls in (SlidingKVCache, PrependKVCache):
    torch.manual_seed(0)
    cache = cls(2, 2, 4, 3)
    for _ in range(6):
        cache.append(torch.randn(2, 2, 3), torch.randn(2, 2, 3))
    print(cls.__name__, "k: %.6f v: %.6f" % (cache.k.sum().item(), cache.v.sum().item()))
    print(cls.__name__, "k[0,0]:", [round(v, 4) for v in cache.k[0, 0].flatten().tolist()])
