"""MoCo-like contrastive learning with a key queue and a momentum encoder."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class MoCo(nn.Module):
    def __init__(self, dim=8, K=48, m=0.99, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, dim))
        self.encoder_k = copy.deepcopy(self.encoder_q)   # params still require grad
        self.register_buffer("queue", F.normalize(torch.randn(K, dim), dim=1))
        self.register_buffer("slot_queue", F.normalize(torch.randn(K, dim), dim=1))
        self.register_buffer("safe_queue", F.normalize(torch.randn(K, dim), dim=1))
        self.ptr = 0

    def momentum_update(self):
        with torch.no_grad():
            for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
                pk.mul_(self.m).add_(pq, alpha=1 - self.m)

    def forward(self, xq, xk):
        q = F.normalize(self.encoder_q(xq), dim=1)
        self.momentum_update()
        k = F.normalize(self.encoder_k(xk), dim=1)     # not under no_grad
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.detach().t()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(q.size(0), dtype=torch.long)
        loss = F.cross_entropy(logits, labels)

        b = k.size(0)
        self.queue = torch.cat([k, self.queue], dim=0)[: self.K]  # expect: TEN501
        self.slot_queue[self.ptr:self.ptr + b] = k  # expect: TEN501
        self.safe_queue[self.ptr:self.ptr + b] = k.detach()  # ok
        self.ptr = (self.ptr + b) % self.K  # ok
        return loss


model = MoCo()
opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.05)
for step in range(10):
    x = torch.randn(8, 12)
    xq = x + 0.1 * torch.randn_like(x)
    xk = x + 0.1 * torch.randn_like(x)
    loss = model(xq, xk)
    opt.zero_grad()
    loss.backward()
    opt.step()

print("loss", round(loss.item(), 4), "ptr", model.ptr)
print("queues", round(float(model.queue.norm(dim=1).mean()), 4), round(float(model.slot_queue.sum()), 4),
      round(float(model.safe_queue.sum()), 4))
