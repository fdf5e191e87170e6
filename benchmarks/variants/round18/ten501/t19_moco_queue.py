"""MoCo-style momentum encoder with a negatives queue, plus an instance memory bank."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class MoCo(nn.Module):
    def __init__(self, in_dim=6, dim=8, K=12, m=0.99, T=0.1):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = nn.Linear(in_dim, dim)
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(K, dim), dim=1))
        self.queue_ptr = 0
        self.recent_q = torch.zeros(0, dim)

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.data.mul_(self.m).add_(pq.data, alpha=1.0 - self.m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        self.queue = torch.cat([keys, self.queue], dim=0)[: self.K]  # ok
        self.queue_ptr = (self.queue_ptr + keys.size(0)) % self.K  # ok

    def forward(self, x_q, x_k):
        q = F.normalize(self.encoder_q(x_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = F.normalize(self.encoder_k(x_k), dim=1)
        l_pos = (q * k).sum(dim=1, keepdim=True)
        l_neg = q @ self.queue.t()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        self._dequeue_and_enqueue(k)
        self.recent_q = torch.cat([q, self.recent_q], dim=0)[: self.K]  # expect: TEN501
        return logits, q


model = MoCo()
opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.03, momentum=0.9)
N = 12
data = torch.randn(N, 6)
bank = torch.zeros(N, 8)
bank_detached = torch.zeros(N, 8)
index_batches = [torch.arange(i, i + 4) for i in range(0, N, 4)]

for epoch in range(2):
    for idx in index_batches:
        x = data[idx]
        x_q, x_k = x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x)
        logits, q = model(x_q, x_k)
        labels = torch.zeros(logits.size(0), dtype=torch.long)
        neg_sim = (q @ bank_detached.t()).mean()
        loss = F.cross_entropy(logits, labels) + 0.01 * neg_sim
        opt.zero_grad()
        loss.backward()
        opt.step()
        bank[idx] = q  # expect: TEN501
        bank_detached[idx] = q.detach()  # ok
    print(f"epoch {epoch} loss {loss.item():.4f} ptr {model.queue_ptr}")
