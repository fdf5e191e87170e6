"""SimCLR / NT-Xent training loop that collects embeddings and similarity matrices."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def nt_xent(z1, z2, tau):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.t() / tau
    sim = sim.masked_fill(torch.eye(sim.size(0), dtype=torch.bool), float("-inf"))
    n = z1.size(0)
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets), sim


class EmbeddingCollector:
    def __init__(self, dim):
        self.embeddings = torch.empty(0, dim)

    def add(self, z):
        self.embeddings = torch.cat([self.embeddings, z], dim=0)


backbone = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 8))
head = nn.Linear(8, 4)
opt = torch.optim.Adam(list(backbone.parameters()) + list(head.parameters()), lr=1e-3)
collector = EmbeddingCollector(8)
collector_detached = EmbeddingCollector(8)
sim_matrices = []
temps = []
pos_sims = []
for step in range(3):
    tau = 0.5 - 0.1 * step
    x = torch.randn(4, 6)
    h1 = backbone(x + 0.1 * torch.randn_like(x))
    h2 = backbone(x + 0.1 * torch.randn_like(x))
    loss, sim = nt_xent(head(h1), head(h2), tau)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sim_matrices.append(sim)  # expect: TEN501
    temps.append(tau)  # ok
    pos_sims.append(sim.diagonal(offset=4).mean().item())  # ok
    collector.add(h1)  # expect: TEN501
    collector_detached.add(h1.detach())  # ok

print("embeddings:", tuple(collector_detached.embeddings.shape), "pos:", [round(v, 3) for v in pos_sims])
