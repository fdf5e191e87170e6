"""Instance-discrimination memory bank (NPID-style) and per-sample loss bookkeeping."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class MemoryBank:
    def __init__(self, n, dim, momentum=0.5):
        self.memory = F.normalize(torch.randn(n, dim), dim=1)
        self.momentum = momentum

    def negatives(self, k):
        idx = torch.randint(0, self.memory.size(0), (k,))
        return self.memory[idx].detach()

    def update(self, idx, feats):
        new = self.momentum * self.memory[idx] + (1 - self.momentum) * feats
        self.memory.index_copy_(0, idx, F.normalize(new, dim=1))


class LinearAverage(nn.Module):
    """Same idea, as an nn.Module with a registered buffer updated in forward."""

    def __init__(self, n, dim, T=0.1, momentum=0.5):
        super().__init__()
        self.T, self.momentum = T, momentum
        self.register_buffer("memory", F.normalize(torch.randn(n, dim), dim=1))
        self.register_buffer("seen", torch.zeros(n, dtype=torch.bool))

    def forward(self, feats):
        return feats @ self.memory.clone().t() / self.T

    @torch.no_grad()
    def update_memory(self, feats, idx):
        pos = self.memory[idx] * self.momentum + feats * (1 - self.momentum)
        self.memory[idx] = F.normalize(pos, dim=1)  # ok
        self.seen[idx] = True  # ok


N, D = 160, 8
data = torch.randn(N, 12)
encoder = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, D))
encoder2 = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, D))
bank = MemoryBank(N, D)
lemniscate = LinearAverage(N, D)
opt = torch.optim.SGD(list(encoder.parameters()) + list(encoder2.parameters()), lr=0.05, momentum=0.9)
per_sample_loss = torch.zeros(N)
per_sample_loss_ok = torch.zeros(N)
hardness = {}

for epoch in range(3):
    perm = torch.randperm(N)
    for i in range(0, N, 32):
        idx = perm[i:i + 32]
        f = F.normalize(encoder(data[idx]), dim=1)
        pos = (f * bank.memory[idx].detach()).sum(1, keepdim=True)
        neg = f @ bank.negatives(64).t()
        logits = torch.cat([pos, neg], dim=1) / 0.1
        losses = F.cross_entropy(logits, torch.zeros(len(idx), dtype=torch.long), reduction="none")

        f2 = F.normalize(encoder2(data[idx]), dim=1)
        loss2 = F.cross_entropy(lemniscate(f2), idx)
        opt.zero_grad()
        (losses.mean() + loss2).backward()
        opt.step()

        bank.update(idx, f)  # expect: TEN501
        lemniscate.update_memory(f2, idx)
        per_sample_loss[idx] = losses  # expect: TEN501
        per_sample_loss_ok[idx] = losses.detach()  # ok
        hardness[epoch * 10 + i // 32] = losses.max()  # expect: TEN501

weights = per_sample_loss_ok / per_sample_loss_ok.sum()
print("bank norm:", bank.memory.norm(dim=1).mean().item(), "bank has grad_fn:", bank.memory.grad_fn is not None)
print("per-sample mean:", per_sample_loss.mean().item(), "sampling entropy:", -(weights * weights.log()).sum().item())
print("lemniscate seen:", int(lemniscate.seen.sum()), "hardest batch:", max(v.item() for v in hardness.values()))
