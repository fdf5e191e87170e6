"""Contrastive training with a negative queue and a feature memory bank."""
import torch
import torch.nn.functional as F
from torch import nn


class QueueContrast(nn.Module):
    def __init__(self, dim=8, K=24, T=0.2):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, dim))
        self.K, self.T = K, T
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_safe", F.normalize(torch.randn(dim, K), dim=0))
        self.ptr = 0
        self.ptr_safe = 0
        self.bank = torch.empty(0, dim)
        self.bank_safe = torch.empty(0, dim)
        self.bank_size = 20

    def enqueue(self, keys):
        bs = keys.shape[0]
        self.queue[:, self.ptr:self.ptr + bs] = keys.T  # expect: TEN501
        self.ptr = (self.ptr + bs) % self.K  # ok

    @torch.no_grad()
    def enqueue_safe(self, keys):
        bs = keys.shape[0]
        self.queue_safe[:, self.ptr_safe:self.ptr_safe + bs] = keys.T  # ok
        self.ptr_safe = (self.ptr_safe + bs) % self.K  # ok

    def remember(self, feats):
        self.bank = torch.cat([self.bank, feats])[-self.bank_size:]  # expect: TEN501
        self.bank_safe = torch.cat([self.bank_safe, feats.detach()])[-self.bank_size:]  # ok

    def forward(self, x1, x2):
        q = F.normalize(self.encoder(x1), dim=1)
        k = F.normalize(self.encoder(x2), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.clone().detach()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        loss = F.cross_entropy(logits, torch.zeros(len(x1), dtype=torch.long))
        return loss, k


torch.manual_seed(0)
model = QueueContrast()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(6):
    x = torch.randn(4, 10)
    loss, keys = model(x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x))
    opt.zero_grad()
    loss.backward()
    opt.step()
    model.enqueue(keys)
    model.enqueue_safe(keys)
    model.remember(keys)
print(model.queue.grad_fn is not None, model.queue_safe.grad_fn, model.bank.shape, model.bank_safe.shape)
