"""VAE on toy data with beta-annealed KL; reconstruction/KL bookkeeping inline."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class VAE(nn.Module):
    def __init__(self, d=8, z=2):
        super().__init__()
        self.enc = nn.Linear(d, 2 * z)
        self.dec = nn.Sequential(nn.Linear(z, 16), nn.ReLU(), nn.Linear(16, d))

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, -1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar


vae = VAE()
opt = torch.optim.Adam(vae.parameters(), lr=5e-3)
recon_total, kl_total = 0.0, 0.0
beta_kl_hist, beta_kl_hist_ok = [], []
mu_history = []
for step in range(10):
    x = torch.rand(24, 8)
    xr, mu, logvar = vae(x)
    recon = F.mse_loss(xr, x, reduction="sum") / x.size(0)
    kl = -0.5 * torch.mean(torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1))
    beta = min(1.0, step / 5)
    loss = recon + beta * kl
    opt.zero_grad()
    loss.backward()
    opt.step()
    recon_total += recon  # expect: TEN501
    kl_total += kl.item()  # ok
    beta_kl_hist.append(beta * kl)  # expect: TEN501
    beta_kl_hist_ok.append(beta * kl.detach())  # ok
    mu_history.append(mu.mean(0))  # expect: TEN501

print("recon", round(recon_total.item() / 10, 4), "kl", round(kl_total / 10, 4))
print("beta*kl", [round(float(v), 4) for v in beta_kl_hist_ok[-3:]], round(beta_kl_hist[-1].item(), 4))
