import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(10, 16)
        self.mu = nn.Linear(16, 2)
        self.logvar = nn.Linear(16, 2)

    def forward(self, x):
        h = F.relu(self.fc(x))
        return self.mu(h), self.logvar(h)


enc, dec = Encoder(), nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 10))
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=3e-3)
latents, latents_ok, beta_hist = [], [], []
kl_by_epoch = {}
weighted_kl = []

for epoch in range(4):
    beta = min(1.0, 0.25 * (epoch + 1))
    for _ in range(3):
        x = torch.randn(32, 10)
        mu, logvar = enc(x)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        recon = F.mse_loss(dec(z), x)
        kl = -0.5 * torch.mean(torch.sum(1 + logvar - mu ** 2 - logvar.exp(), dim=1))
        loss = recon + beta * kl
        opt.zero_grad()
        loss.backward()
        opt.step()
        latents.append(mu)  # expect: TEN501
        latents_ok.append(mu.detach().cpu().numpy())  # ok
        kl_by_epoch[epoch] = kl_by_epoch.get(epoch, 0.0) + kl  # expect: TEN501
    weighted_kl.append(beta * kl)  # expect: TEN501
    beta_hist.append(beta)  # ok

Z = np.concatenate(latents_ok)
print("latent mean", np.round(Z.mean(0), 3), "beta", beta_hist)
print({e: round(float(v) / 3, 4) for e, v in kl_by_epoch.items()})
