"""MoCo-style negative queue: two variants of the key encoder / enqueue logic."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class QueueContrast(nn.Module):
    """Keys come from the query encoder itself (shared weights, 'SimSiam-ish' shortcut)."""

    def __init__(self, dim=8, K=48, tau=0.2):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, dim))
        self.K, self.tau = K, tau
        self.queue = F.normalize(torch.randn(K, dim), dim=1)

    def _enqueue(self, keys):
        self.queue = torch.cat([keys, self.queue], dim=0)[: self.K]  # expect: TEN501

    def forward(self, xq, xk):
        q = F.normalize(self.encoder(xq), dim=1)
        k = F.normalize(self.encoder(xk), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.detach().t()
        logits = torch.cat([l_pos, l_neg], 1) / self.tau
        loss = F.cross_entropy(logits, torch.zeros(len(q), dtype=torch.long))
        self._enqueue(k)
        return loss


class MoCo(nn.Module):
    """Momentum key encoder, updated and used without gradients."""

    def __init__(self, dim=8, K=48, tau=0.2, m=0.99):
        super().__init__()
        self.encoder_q = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, dim))
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.K, self.tau, self.m = K, tau, m
        self.register_buffer("queue", F.normalize(torch.randn(K, dim), dim=1))

    @torch.no_grad()
    def _momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.mul_(self.m).add_(pq, alpha=1 - self.m)

    def _enqueue(self, keys):
        self.queue = torch.cat([keys, self.queue], dim=0)[: self.K]  # ok

    def forward(self, xq, xk):
        q = F.normalize(self.encoder_q(xq), dim=1)
        self._momentum_update()
        k = F.normalize(self.encoder_k(xk), dim=1)
        logits = torch.cat([(q * k).sum(1, keepdim=True), q @ self.queue.t()], 1) / self.tau
        loss = F.cross_entropy(logits, torch.zeros(len(q), dtype=torch.long))
        self._enqueue(k)
        return loss


for cls in (QueueContrast, MoCo):
    torch.manual_seed(0)
    model = cls()
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.05)
    for it in range(7):
        x = torch.randn(12, 16)
        loss = model(x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(cls.__name__, round(loss.item(), 4), model.queue.shape, model.queue.requires_grad)
