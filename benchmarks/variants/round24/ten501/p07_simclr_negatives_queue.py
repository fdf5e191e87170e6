"""SimCLR-ish contrastive training that keeps a queue of extra negatives between steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(16, 32), nn.ReLU())
        self.head = nn.Linear(32, 8)

    def forward(self, x):
        return F.normalize(self.head(self.backbone(x)), dim=-1)


def info_nce(q, k, negatives, tau=0.2):
    pos = (q * k).sum(-1, keepdim=True)
    neg = q @ negatives.t() if negatives.numel() else q.new_zeros(q.size(0), 0)
    logits = torch.cat([pos, neg], 1) / tau
    return F.cross_entropy(logits, torch.zeros(q.size(0), dtype=torch.long))


class NegativeQueue:
    def __init__(self, size):
        self.size = size
        self.feats = torch.empty(0, 8)

    def push(self, feats):
        self.feats = torch.cat([feats, self.feats], 0)[: self.size]

    def get(self):
        return self.feats.detach()


def augment(x):
    return x + 0.1 * torch.randn_like(x)


enc = Encoder()
opt = torch.optim.Adam(enc.parameters(), lr=1e-3)
queue = NegativeQueue(24)
queue_fixed = NegativeQueue(24)
for step in range(6):
    x = torch.randn(6, 16)
    q, k = enc(augment(x)), enc(augment(x))
    loss = info_nce(q, k, queue_fixed.get())
    opt.zero_grad()
    loss.backward()
    opt.step()
    queue.push(k)  # expect: TEN501
    queue_fixed.push(k.detach())  # ok
print(queue.feats.shape, queue_fixed.feats.requires_grad)
