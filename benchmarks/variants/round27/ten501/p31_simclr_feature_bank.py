"""SimCLR-ish pretraining with a kNN monitor feature bank."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def nt_xent(z1, z2, tau=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.t() / tau
    n = z1.size(0)
    sim.fill_diagonal_(-1e9)
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


class FeatureBank:
    def __init__(self):
        self.feats = []

    def push(self, f):
        self.feats.append(f)

    def matrix(self):
        return torch.cat(self.feats)


class SimCLRModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 16))
        self.proj = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 8))
        self.train_bank = FeatureBank()
        self.monitor_bank = FeatureBank()
        self.sim_stats = []

    def training_step(self, x):
        v1 = x + 0.1 * torch.randn_like(x)
        v2 = x * (1 + 0.1 * torch.randn_like(x))
        h1, h2 = self.backbone(v1), self.backbone(v2)
        loss = nt_xent(self.proj(h1), self.proj(h2))
        self.train_bank.push(h1)  # expect: TEN501
        self.sim_stats.append(F.cosine_similarity(h1, h2).mean())  # expect: TEN501
        return loss

    @torch.no_grad()
    def monitor(self, x):
        self.monitor_bank.push(F.normalize(self.backbone(x), dim=1))  # ok


m = SimCLRModule()
opt = torch.optim.Adam(m.parameters(), lr=1e-3)
for step in range(8):
    x = torch.randn(8, 12)
    loss = m.training_step(x)
    opt.zero_grad()
    loss.backward()
    opt.step()
    m.monitor(x)
print("loss", round(loss.item(), 4), "bank", tuple(m.train_bank.matrix().shape), tuple(m.monitor_bank.matrix().shape))
