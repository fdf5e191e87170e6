"""Instance-discrimination memory bank with a kNN monitor."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N, D = 64, 8
data = torch.randn(N, 12)
labels = (data[:, 0] > 0).long()
net = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, D))
opt = torch.optim.SGD(net.parameters(), lr=0.1)


class MemoryBank:
    def __init__(self, n, d):
        self.bank = F.normalize(torch.randn(n, d), dim=1)

    def write(self, idx, feats):
        self.bank[idx] = feats

    def knn_acc(self, labels, k=5):
        with torch.no_grad():
            sim = self.bank @ self.bank.t()
            sim.fill_diagonal_(-1)
            nn_idx = sim.topk(k, dim=1).indices
            votes = labels[nn_idx].float().mean(1).round().long()
            return (votes == labels).float().mean().item()


bank = MemoryBank(N, D)
bank_ok = MemoryBank(N, D)
for epoch in range(2):
    perm = torch.randperm(N)
    for i in range(0, N, 16):
        idx = perm[i:i + 16]
        x = data[idx]
        f1 = F.normalize(net(x + 0.05 * torch.randn_like(x)), dim=1)
        f2 = F.normalize(net(x + 0.05 * torch.randn_like(x)), dim=1)
        loss = F.cross_entropy(f1 @ f2.t() / 0.5, torch.arange(len(idx)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        bank.write(idx, f1)  # expect: TEN501
        bank_ok.write(idx, f1.detach())  # ok
    print(f"epoch {epoch} loss {loss.item():.4f} knn {bank.knn_acc(labels):.3f} {bank_ok.knn_acc(labels):.3f}")
