"""SimCLR-style NT-Xent training with some embedding diagnostics."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def nt_xent(z1, z2, tau=0.5):
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    sim = z @ z.t() / tau
    self_mask = torch.eye(2 * n, dtype=torch.bool)
    sim = sim.masked_fill(self_mask, -1e9)
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets), sim


def augment(x):
    scale = 1 + 0.2 * torch.randn(x.shape[0], 1)
    mask = (torch.rand_like(x) > 0.1).float()
    return x * scale * mask + 0.05 * torch.randn_like(x)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(24, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 32))
        self.g = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 16))

    def forward(self, x, project=True):
        h = self.f(x)
        return self.g(h) if project else h


def main():
    data = torch.randn(8, 24).repeat_interleave(32, 0) + 0.3 * torch.randn(256, 24)
    x_eval = data[::16]
    model = Encoder()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    embeddings_for_viz = []
    pos_sims = []
    eval_embs = []
    uniformity_log = []

    for epoch in range(2):
        model.train()
        perm = torch.randperm(256)
        for step in range(8):
            x = data[perm[step * 32:(step + 1) * 32]]
            z1, z2 = model(augment(x)), model(augment(x))
            loss, sim = nt_xent(z1, z2)
            opt.zero_grad()
            loss.backward()
            opt.step()

            n = z1.shape[0]
            pos_sims.append(sim[:n, n:].diagonal().mean().detach())  # ok
            if step % 2 == 0:
                embeddings_for_viz.append(z1)  # expect: TEN501
            uniformity = torch.pdist(F.normalize(z1.detach(), dim=1)).pow(2).mul(-2).exp().mean().log()
            uniformity_log.append(uniformity)  # ok
        model.eval()
        with torch.no_grad():
            eval_embs.append(model(x_eval, project=False))  # ok
        print(f"epoch {epoch}: loss {loss.item():.3f} pos-sim {torch.stack(pos_sims[-8:]).mean().item():.3f} "
              f"uniformity {uniformity_log[-1].item():.3f}")
    print(len(embeddings_for_viz), "embedding batches kept for visualisation")


if __name__ == "__main__":
    main()
