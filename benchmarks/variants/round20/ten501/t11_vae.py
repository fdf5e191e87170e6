"""VAE on random binary vectors; keeps reconstruction/KL curves and a latent bank."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class VAE(nn.Module):
    def __init__(self, d=16, z=3):
        super().__init__()
        self.enc = nn.Linear(d, 2 * z)
        self.dec = nn.Linear(z, d)

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar, z


model = VAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
data = (torch.rand(96, 16) > 0.5).float()

recon_hist = []
kl_total = 0.0
kl_items = []
mu_bank = []
latents = torch.empty(0, 3)
latents_ok = torch.empty(0, 3)

for epoch in range(2):
    for i in range(0, 96, 16):
        x = data[i:i + 16]
        recon, mu, logvar, z = model(x)
        recon_loss = F.binary_cross_entropy_with_logits(recon, x, reduction="sum") / x.size(0)
        kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
        loss = recon_loss + kld
        opt.zero_grad()
        loss.backward()
        opt.step()

        recon_hist.append(recon_loss)  # expect: TEN501
        kl_total += kld  # expect: TEN501
        kl_items.append(kld.item())  # ok
        mu_bank.append(mu.detach())  # ok
        latents = torch.cat([latents, z])  # expect: TEN501
        with torch.no_grad():
            latents_ok = torch.cat([latents_ok, model(x)[3]])  # ok

print("recon", round(float(recon_hist[-1]), 4), "kl", round(float(kl_total), 4), round(sum(kl_items), 4))
print("latents", tuple(latents.shape), round(float(latents.std()), 4), tuple(latents_ok.shape))
print("mu bank", round(float(torch.cat(mu_bank).mean()), 5))
