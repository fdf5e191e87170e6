"""Tiny VAE with KL annealing and an ELBO trace."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, d=10, z=2):
        super().__init__()
        self.enc = nn.Linear(d, 2 * z)
        self.dec = nn.Linear(z, d)

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar


def elbo_terms(model, x):
    recon_x, mu, logvar = model(x)
    recon = F.mse_loss(recon_x, x, reduction="sum") / x.size(0)
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
    return recon, kl


torch.manual_seed(0)
vae = VAE()
opt = torch.optim.Adam(vae.parameters(), lr=1e-3)
kl_hist = []
recon_total = 0.0
elbo_trace = torch.empty(0)
beta_schedule = []
for it in range(6):
    x = torch.randn(8, 10)
    beta = min(1.0, (it + 1) / 4)
    recon, kl = elbo_terms(vae, x)
    loss = recon + beta * kl
    opt.zero_grad()
    loss.backward()
    opt.step()
    kl_hist.append(kl)  # expect: TEN501
    recon_total += recon.item()  # ok
    elbo_trace = torch.cat((elbo_trace, (-loss).unsqueeze(0)))  # expect: TEN501
    beta_schedule.append(beta)  # ok
print(len(kl_hist), recon_total, elbo_trace.shape, beta_schedule[-1])
