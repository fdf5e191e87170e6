"""MoCo-style contrastive learning: momentum key encoder + negative queue."""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MoCo(nn.Module):
    def __init__(self, dim=8, K=32, m=0.99, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, dim))
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(K, dim), dim=1))
        self.query_bank = torch.zeros(0, dim)

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.mul_(self.m).add_(pq, alpha=1 - self.m)  # ok

    def forward(self, xq, xk):
        q = F.normalize(self.encoder_q(xq), dim=1)
        self._momentum_update_key_encoder()
        with torch.no_grad():
            k = F.normalize(self.encoder_k(xk), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.t()
        logits = torch.cat([l_pos, l_neg], 1) / self.T
        self.queue = torch.cat([k, self.queue])[: self.K]  # ok
        self.query_bank = torch.cat([self.query_bank, q])[-self.K:]  # expect: TEN501
        return logits


model = MoCo()
opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.05)
for step in range(8):
    x = torch.randn(6, 10)
    logits = model(x + 0.05 * torch.randn_like(x), x + 0.05 * torch.randn_like(x))
    loss = F.cross_entropy(logits, torch.zeros(6, dtype=torch.long))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
print("bank", tuple(model.query_bank.shape), "queue norm", round(model.queue.norm().item(), 4))
