"""MoCo v2-style queue with a momentum key encoder, plus a variant that enqueues query features."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MoCo(nn.Module):
    def __init__(self, dim=8, K=32, m=0.99, T=0.2, enqueue_queries=False):
        super().__init__()
        self.encoder_q = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, dim))
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.K, self.m, self.T = K, m, T
        self.enqueue_queries = enqueue_queries
        self.register_buffer("queue", F.normalize(torch.randn(K, dim), dim=1))
        self.extra_negatives = torch.empty(0, dim)

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data = param_k.data * self.m + param_q.data * (1.0 - self.m)  # ok

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        self.queue = torch.cat([keys, self.queue], 0)[: self.K]  # ok

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.clone().detach().t()
        logits = torch.cat([l_pos, l_neg], 1) / self.T
        self._dequeue_and_enqueue(k)
        if self.enqueue_queries:
            self.extra_negatives = torch.cat([q, self.extra_negatives], 0)[: self.K]  # expect: TEN501
        return logits, torch.zeros(logits.size(0), dtype=torch.long)


for flag in (False, True):
    moco = MoCo(enqueue_queries=flag)
    opt = torch.optim.SGD(moco.encoder_q.parameters(), lr=0.03)
    for step in range(5):
        x = torch.randn(6, 12)
        logits, labels = moco(x + 0.05 * torch.randn_like(x), x + 0.05 * torch.randn_like(x))
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(flag, moco.queue.requires_grad, moco.extra_negatives.shape)
