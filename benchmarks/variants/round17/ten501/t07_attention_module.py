"""Self-attention block that keeps attention maps for later visualisation."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class SelfAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.attn_maps = []
        self.entropy_trace = []
        self.last_attn = None
        self.scale = 1.0 / math.sqrt(dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        attn = torch.softmax(q @ k.transpose(-2, -1) * self.scale, dim=-1)
        self.attn_maps.append(attn)  # expect: TEN501
        self.last_attn = attn  # either
        ent = -(attn * attn.clamp_min(1e-9).log()).sum(-1).mean()
        self.entropy_trace.append(ent.detach())  # ok
        return self.proj(attn @ v)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(3, 8)
        self.block = SelfAttention(8)
        self.out = nn.Linear(8, 2)

    def forward(self, x):
        h = self.block(self.embed(x))
        return self.out(h.mean(dim=1))


clf = Classifier()
opt = torch.optim.Adam(clf.parameters(), lr=1e-3)
for step in range(7):
    x = torch.randn(4, 5, 3)
    y = (x.sum(dim=(1, 2)) > 0).long()
    loss = nn.functional.cross_entropy(clf(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()

print(len(clf.block.attn_maps), clf.block.entropy_trace[-1].item())
