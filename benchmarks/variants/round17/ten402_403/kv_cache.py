"""A fixed-size sliding-window KV cache for incremental attention decoding."""
import math

import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class SlidingKV:
    def __init__(self, b, h, t, d):
        self.k = torch.zeros(b, h, t, d)
        self.v = torch.zeros(b, h, t, d)

    def append(self, k_new, v_new):
        self.k[:, :, :-1] = self.k[:, :, 1:]  # expect: TEN403
        self.v[:, :, :-1] = self.v[:, :, 1:].clone()  # ok
        self.k[:, :, -1:] = k_new  # ok
        self.v[:, :, -1:] = v_new  # ok


class NewestFirstKV(SlidingKV):
    def append(self, k_new, v_new):
        self.k[:, :, 1:] = self.k[:, :, :-1]  # expect: TEN403
        self.v = torch.cat([v_new, self.v[:, :, :-1]], dim=2)  # ok
        self.k[:, :, :1] = k_new  # ok


class ConcatKV(SlidingKV):
    def append(self, k_new, v_new):
        self.k = torch.cat([self.k[:, :, 1:], k_new], dim=2)  # ok
        self.v = torch.cat([self.v[:, :, 1:], v_new], dim=2)  # ok


def decode(cache_cls, steps=24):
    torch.manual_seed(0)
    b, h, t, d = 2, 2, 12, 8
    proj = nn.Linear(d * h, 3 * d * h)
    cache = cache_cls(b, h, t, d)
    x = torch.randn(b, d * h)
    outs = []
    with torch.no_grad():
        for _ in range(steps):
            q, k, v = proj(x).view(b, 3, h, 1, d).unbind(1)
            cache.append(k, v)
            att = (q @ cache.k.transpose(-1, -2) / math.sqrt(d)).softmax(-1)
            x = (att @ cache.v).reshape(b, d * h).tanh()
            outs.append(x.sum().item())
    return sum(outs)


if __name__ == "__main__":
    for cls in (SlidingKV, NewestFirstKV, ConcatKV):
        print(cls.__name__, round(decode(cls), 5))
