"""VAE with a dict of loss terms; per-term running sums for the progress bar."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class VAE(nn.Module):
    def __init__(self, d=12, z=3):
        super().__init__()
        self.enc = nn.Linear(d, 16)
        self.mu = nn.Linear(16, z)
        self.logvar = nn.Linear(16, z)
        self.dec = nn.Sequential(nn.Linear(z, 16), nn.ReLU(), nn.Linear(16, d))

    def forward(self, x):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar

    def loss_terms(self, x, beta):
        recon, mu, logvar = self(x)
        rec = F.mse_loss(recon, x, reduction="sum") / x.size(0)
        kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
        return {"rec": rec, "kl": beta * kl}


vae = VAE()
opt = torch.optim.Adam(vae.parameters(), lr=1e-3)
data = [torch.randn(10, 12) for _ in range(4)]
running = {"rec": 0.0, "kl": 0.0}
running_fixed = {"rec": 0.0, "kl": 0.0}
kl_hist = torch.empty(0)
kl_hist_fixed = torch.empty(0)

for epoch in range(2):
    beta = min(1.0, 0.5 * (epoch + 1))
    for x in data:
        terms = vae.loss_terms(x, beta)
        loss = 0.0
        for k, v in terms.items():
            loss = loss + v  # ok
            running[k] += v  # expect: TEN501
            running_fixed[k] += v.item()  # ok
        opt.zero_grad()
        loss.backward()
        opt.step()
        kl_hist = torch.cat((kl_hist, terms["kl"].unsqueeze(0)))  # expect: TEN501
        kl_hist_fixed = torch.cat((kl_hist_fixed, terms["kl"].detach().unsqueeze(0)))  # ok
    print(epoch, {k: float(v) for k, v in running.items()}, running_fixed, kl_hist_fixed.shape)
