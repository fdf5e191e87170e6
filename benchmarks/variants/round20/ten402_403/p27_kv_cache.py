"""A fixed-size key/value cache for incremental attention decoding."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


class RecentFirstCache:
    """Slot 0 holds the newest step; older steps move towards the end."""

    def __init__(self, b, h, window, d, safe):
        self.k = torch.zeros(b, h, window, d)
        self.v = torch.zeros(b, h, window, d)
        self.safe = safe

    def append(self, k_new, v_new):
        if self.safe:
            self.k[:, :, 1:] = self.k[:, :, :-1].clone()  # ok
            self.v[:, :, 1:] = self.v[:, :, :-1].clone()  # ok
        else:
            self.k[:, :, 1:] = self.k[:, :, :-1]  # expect: TEN403
            self.v[:, :, 1:] = self.v[:, :, :-1]  # expect: TEN403
        self.k[:, :, 0] = k_new
        self.v[:, :, 0] = v_new


class SlidingCache:
    """Oldest first; drops slot 0 and appends at the end."""

    def __init__(self, b, h, window, d):
        self.k = torch.zeros(b, h, window, d)

    def append(self, k_new):
        self.k[:, :, :-1] = self.k[:, :, 1:]  # either
        self.k[:, :, -1] = k_new


def attend(q, k, v):
    w = (q.unsqueeze(2) @ k.transpose(-1, -2)).softmax(-1)
    return (w @ v).squeeze(2)


def decode(safe):
    torch.manual_seed(0)
    cache = RecentFirstCache(2, 4, 6, 8, safe)
    outs = []
    for _ in range(9):
        q, k, v = torch.randn(3, 2, 4, 8).unbind(0)
        cache.append(k, v)
        outs.append(attend(q, cache.k, cache.v))
    return torch.stack(outs), cache


(a, ca), (b, cb) = decode(False), decode(True)
print("recent-first cache: in-place shift agrees with cloned shift:", torch.allclose(a, b),
      "| keys equal:", torch.equal(ca.k, cb.k), "| values equal:", torch.equal(ca.v, cb.v))

torch.manual_seed(1)
sliding = SlidingCache(2, 4, 6, 8)
reference = torch.zeros(2, 4, 6, 8)
for _ in range(9):
    k = torch.randn(2, 4, 8)
    sliding.append(k)
    reference = torch.cat([reference[:, :, 1:], k.unsqueeze(2)], dim=2)  # ok
print("sliding cache (left shift) agrees with cat reference:", torch.equal(sliding.k, reference))
