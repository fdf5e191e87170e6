"""Two queue-based contrastive models: shared encoder and MoCo."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class QueueContrast(nn.Module):
    """Shares one encoder for queries and keys; keys are enqueued as-is."""

    def __init__(self, dim=8, k=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, dim))
        self.register_buffer("queue", F.normalize(torch.randn(dim, k), dim=0))
        self.ptr = 0

    def _enqueue(self, keys):
        b = keys.shape[0]
        self.queue[:, self.ptr:self.ptr + b] = keys.T
        self.ptr = (self.ptr + b) % self.queue.shape[1]

    def forward(self, x1, x2):
        q = F.normalize(self.encoder(x1), dim=1)
        k = F.normalize(self.encoder(x2), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.clone().detach()
        self._enqueue(k)  # expect: TEN501
        return torch.cat([l_pos, l_neg], 1) / 0.2


class MoCo(nn.Module):
    def __init__(self, dim=8, k=32, m=0.9):
        super().__init__()
        self.encoder_q = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, dim))
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.m = m
        self.register_buffer("queue", F.normalize(torch.randn(dim, k), dim=0))
        self.ptr = 0

    @torch.no_grad()
    def _momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.data.mul_(self.m).add_(pq.data, alpha=1 - self.m)  # ok

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        b = keys.shape[0]
        self.queue[:, self.ptr:self.ptr + b] = keys.T  # ok
        self.ptr = (self.ptr + b) % self.queue.shape[1]

    def forward(self, x1, x2):
        q = F.normalize(self.encoder_q(x1), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.encoder_k(x2), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.clone().detach()
        self._dequeue_and_enqueue(k)  # ok
        return torch.cat([l_pos, l_neg], 1) / 0.2


for model in (QueueContrast(), MoCo()):
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.05)
    for step in range(6):
        x = torch.randn(8, 10)
        logits = model(x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x))
        loss = F.cross_entropy(logits, torch.zeros(8, dtype=torch.long))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(type(model).__name__, loss.item(), model.queue.requires_grad)
