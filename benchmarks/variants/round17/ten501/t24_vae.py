"""VAE on synthetic data; per-epoch ELBO bookkeeping."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class VAE(nn.Module):
    def __init__(self, d_in=10, d_z=2):
        super().__init__()
        self.enc = nn.Linear(d_in, 16)
        self.mu = nn.Linear(16, d_z)
        self.logvar = nn.Linear(16, d_z)
        self.dec = nn.Sequential(nn.Linear(d_z, 16), nn.ReLU(), nn.Linear(16, d_in))

    def encode(self, x):
        h = F.relu(self.enc(x))
        return self.mu(h), self.logvar(h)

    def decode(self, z):
        return self.dec(z)

    def forward(self, x):
        mu, logvar = self.encode(x)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.decode(z), mu, logvar


data = torch.randn(60, 10) @ torch.randn(10, 10) * 0.3
vae = VAE()
opt = torch.optim.Adam(vae.parameters(), lr=3e-3)
elbo_hist = []
generated = []
latent_means = []
for epoch in range(3):
    recon_total, kl_total = 0.0, 0.0
    for b in range(0, 60, 20):
        x = data[b:b + 20]
        x_hat, mu, logvar = vae(x)
        recon = F.mse_loss(x_hat, x, reduction="sum") / len(x)
        kl = -0.5 * torch.mean(torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1))
        loss = recon + kl
        opt.zero_grad()
        loss.backward()
        opt.step()
        recon_total += recon.item()  # ok
        kl_total += kl  # expect: TEN501
        latent_means.append(mu.mean(0).detach().cpu().numpy())  # ok
    elbo_hist.append(-(recon_total + kl_total.item()) / 3)  # ok
    with torch.no_grad():
        generated.append(vae.decode(torch.randn(4, 2)))  # ok

print(elbo_hist, len(generated), latent_means[-1])
