"""Tiny VAE: the summed loss is backpropagated, its sibling terms get logged."""
import torch
from torch import nn
from torch.nn import functional as F


class VAE(nn.Module):
    def __init__(self, d=12, z=3):
        super().__init__()
        self.enc = nn.Linear(d, 2 * z)
        self.dec = nn.Sequential(nn.Linear(z, 16), nn.ReLU(), nn.Linear(16, d))

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar


def kl_divergence(mu, logvar):
    return -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())


torch.manual_seed(0)
data = torch.rand(120, 12)
vae = VAE()
optimizer = torch.optim.Adam(vae.parameters(), lr=3e-3)

total_kl = 0.0
total_rec = 0.0
total_loss = 0.0
kl_per_batch = []
beta_trace = []
stats = {"rec": [], "kl": []}

step = 0
for epoch in range(2):
    perm = torch.randperm(len(data))
    for idx in perm.split(20):
        x = data[idx]
        recon, mu, logvar = vae(x)
        rec = F.mse_loss(recon, x)
        kl = kl_divergence(mu, logvar)
        beta = min(1.0, step / 6)
        loss = rec + beta * kl
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step += 1

        total_kl += kl  # expect: TEN501
        kl_per_batch.append(kl)  # expect: TEN501
        total_rec += rec.item()  # ok
        total_loss += float(loss)  # ok
        beta_trace.append(beta)  # ok
        stats["rec"].append(rec.detach().cpu())  # ok
        stats["kl"].append(kl.data)  # ok

print(f"kl {total_kl.item() / step:.4f} rec {total_rec / step:.4f} loss {total_loss / step:.4f}")
print(len(kl_per_batch), beta_trace[-1], len(stats["rec"]))
