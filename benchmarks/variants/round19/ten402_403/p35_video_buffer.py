"""Clip sampler keeping the last T feature maps of a video per stream."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

STREAMS, T, C = 2, 4, 3
enc = nn.Conv2d(1, C, 3, padding=1)


class ClipBuffer:
    def __init__(self):
        self.feats = torch.zeros(STREAMS, T, C, 4, 4)
        self.t = 0

    def add(self, fmap):
        n = self.feats.shape[1]
        keep = n - 1
        dst = self.feats[:, :keep]
        src = self.feats[:, 1:]
        dst.copy_(src)  # expect: TEN403
        self.feats[:, keep] = fmap  # ok
        self.t += 1


class ClipBufferSafe(ClipBuffer):
    def add(self, fmap):
        self.feats = torch.cat([self.feats[:, 1:], fmap[:, None]], dim=1)  # ok
        self.t += 1


b1, b2 = ClipBuffer(), ClipBufferSafe()
with torch.no_grad():
    for _ in range(6):
        f = enc(torch.randn(STREAMS, 1, 4, 4))
        b1.add(f)
        b2.add(f)
print("clip buffers equal:", torch.equal(b1.feats, b2.feats), b1.feats.sum().item())
