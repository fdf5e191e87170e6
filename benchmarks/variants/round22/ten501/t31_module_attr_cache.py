"""Attention modules that stash their maps on attributes for visualisation."""
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.d = d

    def attend(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        attn = (q @ k.transpose(-2, -1) / self.d ** 0.5).softmax(-1)
        return attn @ v, attn


class RecordingAttention(Attention):
    def __init__(self, d):
        super().__init__(d)
        self.attn_maps = []
        self.entropy_sum = 0.0
        self.calls = 0

    def forward(self, x):
        out, attn = self.attend(x)
        self.attn_maps.append(attn)  # expect: TEN501
        self.entropy_sum += -(attn * attn.clamp_min(1e-9).log()).sum(-1).mean()  # expect: TEN501
        self.calls += 1  # ok
        return out


class DetachedRecordingAttention(Attention):
    def __init__(self, d):
        super().__init__(d)
        self.attn_maps = []
        self.entropy_sum = 0.0

    def forward(self, x):
        out, attn = self.attend(x)
        self.attn_maps.append(attn.detach())  # ok
        self.entropy_sum += -(attn * attn.clamp_min(1e-9).log()).sum(-1).mean().item()  # ok
        return out


class LastMapAttention(Attention):
    def forward(self, x):
        out, attn = self.attend(x)
        self.last_attn = attn  # either: TEN501
        return out


class PerCallCacheAttention(Attention):
    def forward(self, x):
        self.heads_cache = []
        out = 0
        for chunk in x.split(2, dim=-1):
            o, attn = self.attend(torch.cat([chunk, chunk.flip(-1)] * (self.d // 4), -1))
            self.heads_cache.append(attn)  # ok
            out = out + o
        return out


def train(layer, steps=5):
    torch.manual_seed(0)
    head = nn.Linear(layer.d, 1)
    opt = torch.optim.Adam(list(layer.parameters()) + list(head.parameters()), lr=1e-2)
    for _ in range(steps):
        x = torch.randn(3, 5, layer.d)
        loss = head(layer(x)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return layer


if __name__ == "__main__":
    a = train(RecordingAttention(4))
    b = train(DetachedRecordingAttention(4))
    c = train(LastMapAttention(4))
    d = train(PerCallCacheAttention(4))
    print(len(a.attn_maps), a.calls, len(b.attn_maps), round(b.entropy_sum, 3), c.last_attn.shape, len(d.heads_cache))
