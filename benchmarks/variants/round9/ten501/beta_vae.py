"""Beta-VAE on MNIST with KL warm-up."""
from collections import defaultdict

import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class ConvVAE(nn.Module):
    def __init__(self, z_dim=16):
        super().__init__()
        self.enc = nn.Sequential(
            nn.Conv2d(1, 32, 4, 2, 1), nn.ReLU(),
            nn.Conv2d(32, 64, 4, 2, 1), nn.ReLU(),
            nn.Flatten(), nn.Linear(64 * 7 * 7, 256), nn.ReLU(),
        )
        self.mu = nn.Linear(256, z_dim)
        self.logvar = nn.Linear(256, z_dim)
        self.dec = nn.Sequential(
            nn.Linear(z_dim, 256), nn.ReLU(),
            nn.Linear(256, 64 * 7 * 7), nn.ReLU(),
            nn.Unflatten(1, (64, 7, 7)),
            nn.ConvTranspose2d(64, 32, 4, 2, 1), nn.ReLU(),
            nn.ConvTranspose2d(32, 1, 4, 2, 1),
        )

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        return mu + std * torch.randn_like(std)

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = self.reparameterize(mu, logvar)
        return self.dec(z), mu, logvar


def vae_terms(x_hat, x, mu, logvar):
    recon = F.binary_cross_entropy_with_logits(x_hat, x, reduction="sum") / x.size(0)
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
    return recon, kl


def fit(model, loader, epochs=20, lr=1e-3, beta_max=4.0, warmup_steps=5000, device="cuda"):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    hist = defaultdict(list)
    latents = []
    global_step = 0
    for epoch in range(epochs):
        model.train()
        for step, (x, _) in enumerate(loader):
            x = x.to(device)
            beta = beta_max * min(1.0, global_step / warmup_steps)
            x_hat, mu, logvar = model(x)
            recon, kl = vae_terms(x_hat, x, mu, logvar)
            loss = recon + beta * kl

            opt.zero_grad()
            loss.backward()
            opt.step()
            global_step += 1

            hist["recon"].append(recon.item())  # ok
            hist["kl"].append(kl)  # expect: TEN501
            hist["beta"].append(beta)
            if step == 0:
                latents.append(mu.detach().cpu())  # ok
        print(f"epoch {epoch}: recon {sum(hist['recon'][-len(loader):]) / len(loader):.2f}")
    return hist, latents


def plot_history(hist, path="vae_curves.png"):
    fig, axes = plt.subplots(1, 3, figsize=(12, 3))
    axes[0].plot(hist["recon"])
    axes[0].set_title("reconstruction")
    axes[1].plot(torch.stack(hist["kl"]).detach().cpu().numpy())
    axes[1].set_title("KL")
    axes[2].plot(hist["beta"])
    axes[2].set_title("beta")
    fig.tight_layout()
    fig.savefig(path)


if __name__ == "__main__":
    ds = datasets.MNIST("./data", train=True, download=True, transform=transforms.ToTensor())
    loader = DataLoader(ds, batch_size=128, shuffle=True, num_workers=2)
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    vae = ConvVAE().to(dev)
    history, lat = fit(vae, loader, device=dev)
    plot_history(history)
    torch.save({"model": vae.state_dict(), "latents": lat}, "beta_vae.pt")
