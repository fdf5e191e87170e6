"""Instance-discrimination with a memory bank of past embeddings."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N, D = 64, 8


class MemoryBank:
    def __init__(self, size, dim):
        self.bank = F.normalize(torch.randn(size, dim), dim=1)

    def update(self, idx, feats, momentum=0.5):
        new = momentum * self.bank[idx] + (1 - momentum) * feats
        self.bank[idx] = F.normalize(new, dim=1)

    def negatives(self, k):
        sel = torch.randint(0, self.bank.size(0), (k,))
        return self.bank[sel].clone().detach()


data = torch.randn(N, 12)
encoder = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, D))
opt = torch.optim.SGD(encoder.parameters(), lr=0.05)
bank = MemoryBank(N, D)
bank_b = MemoryBank(N, D)
temperature = 0.1

for step in range(8):
    idx = torch.randperm(N)[:16]
    z = F.normalize(encoder(data[idx] + 0.05 * torch.randn(16, 12)), dim=1)
    pos = (z * bank.bank[idx].detach()).sum(1, keepdim=True)
    neg = z @ bank.negatives(32).T
    logits = torch.cat([pos, neg], dim=1) / temperature
    loss = F.cross_entropy(logits, torch.zeros(16, dtype=torch.long))
    opt.zero_grad()
    loss.backward()
    opt.step()
    bank.update(idx, z)  # expect: TEN501
    bank_b.update(idx, z.detach())  # ok

print(loss.item(), bank.bank.requires_grad, bank_b.bank.requires_grad)
