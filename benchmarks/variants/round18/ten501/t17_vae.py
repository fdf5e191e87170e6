"""VAE training with per-epoch loss statistics and collected latent codes."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class VAE(nn.Module):
    def __init__(self, d=8, h=16, z=2):
        super().__init__()
        self.enc = nn.Linear(d, h)
        self.mu = nn.Linear(h, z)
        self.logvar = nn.Linear(h, z)
        self.dec = nn.Sequential(nn.Linear(z, h), nn.ReLU(), nn.Linear(h, d))

    def forward(self, x):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    recon = F.mse_loss(recon_x, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return recon, kld


vae = VAE()
opt = torch.optim.Adam(vae.parameters(), lr=1e-3)
batches = [torch.randn(10, 8) for _ in range(3)]
beta = 0.5

latents = []
latents_np = []
kl_history = []
for epoch in range(2):
    epoch_stats = {"recon": 0.0, "kl": 0.0}
    for xb in batches:
        recon_x, mu, logvar = vae(xb)
        recon, kl = loss_function(recon_x, xb, mu, logvar)
        loss = (recon + beta * kl) / xb.size(0)
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_stats["recon"] += recon.item()  # ok
        epoch_stats["kl"] += kl  # expect: TEN501
        latents.append(mu)  # expect: TEN501
        latents_np.append(mu.detach().numpy())  # ok
        kl_history.append(kl.detach().cpu())  # ok
    print(f"epoch {epoch}: recon {epoch_stats['recon']:.2f} kl {epoch_stats['kl'].item():.3f}")

print("latent batches:", len(latents_np), latents_np[-1].shape)
