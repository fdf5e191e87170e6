"""Tiny VAE with KL annealing; tracks reconstruction and KL terms."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class VAE(nn.Module):
    def __init__(self, d=10, z=2):
        super().__init__()
        self.enc = nn.Linear(d, 2 * z)
        self.dec = nn.Sequential(nn.Linear(z, 16), nn.ReLU(), nn.Linear(16, d))

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        zs = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(zs), mu, logvar


vae = VAE()
opt = torch.optim.Adam(vae.parameters(), lr=1e-2)
kl_history = []
recon_sum = torch.zeros(())
recon_sum_bad = torch.zeros(())
mu_snapshots = []
for it in range(10):
    x = torch.rand(32, 10)
    recon, mu, logvar = vae(x)
    rec = F.binary_cross_entropy_with_logits(recon, x, reduction="sum") / len(x)
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / len(x)
    beta = min(1.0, it / 5)
    loss = rec + beta * kl
    opt.zero_grad()
    loss.backward()
    opt.step()
    kl_history.append(kl)  # expect: TEN501
    recon_sum += rec.detach()  # ok
    recon_sum_bad += rec  # expect: TEN501
    mu_snapshots.append(mu.mean(0).detach().cpu())  # ok
print(round(torch.stack(kl_history).mean().item(), 4), round(recon_sum.item() / 10, 4), round(recon_sum_bad.item() / 10, 4), torch.stack(mu_snapshots).shape)
