"""MoCo-style negatives queue: keys must come from the momentum encoder (no graph)."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MoCoLite(nn.Module):
    def __init__(self, dim=16, K=4096, m=0.99, T=0.2):
        super().__init__()
        self.q_enc = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, dim))
        self.k_enc = copy.deepcopy(self.q_enc).requires_grad_(False)
        self.m, self.T, self.K = m, T, K
        self.register_buffer("queue", F.normalize(torch.randn(8, dim), dim=1))
        self.register_buffer("queue_q", F.normalize(torch.randn(8, dim), dim=1))

    @torch.no_grad()
    def momentum_update(self):
        for pk, pq in zip(self.k_enc.parameters(), self.q_enc.parameters()):
            pk.mul_(self.m).add_(pq.detach(), alpha=1 - self.m)  # ok

    def forward(self, x1, x2):
        q = F.normalize(self.q_enc(x1), dim=1)
        self.momentum_update()
        k = F.normalize(self.k_enc(x2), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.t()
        logits = torch.cat([l_pos, l_neg], 1) / self.T
        loss = F.cross_entropy(logits, torch.zeros(len(q), dtype=torch.long))
        self.queue = torch.cat([k, self.queue])[: self.K]  # ok
        self.queue_q = torch.cat([q, self.queue_q])[: self.K]  # expect: TEN501
        return loss


model = MoCoLite()
opt = torch.optim.SGD(model.q_enc.parameters(), lr=0.05)
for step in range(8):
    base = torch.randn(16, 10)
    loss = model(base + 0.1 * torch.randn_like(base), base + 0.1 * torch.randn_like(base))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4), tuple(model.queue.shape))
