"""Beta-VAE where train_step returns a dict of loss terms that the loop aggregates."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, d=16, z=4):
        super().__init__()
        self.enc = nn.Linear(d, 2 * z)
        self.dec = nn.Sequential(nn.Linear(z, 32), nn.ReLU(), nn.Linear(32, d))

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        zs = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(zs), mu, logvar


def train_step(model, opt, x, beta):
    recon, mu, logvar = model(x)
    rec = F.mse_loss(recon, x, reduction="sum") / x.size(0)
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
    total = rec + beta * kl
    opt.zero_grad()
    total.backward()
    opt.step()
    return {"total": total, "recon": rec, "kl": kl}


def run(epochs=2, bs=32, beta=0.5):
    torch.manual_seed(0)
    data = torch.randn(160, 16) @ torch.randn(16, 16) * 0.3
    model = VAE()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    per_epoch = []
    worst = None
    for epoch in range(epochs):
        running, running_scalars, steps = {}, {}, 0
        for i in range(0, len(data), bs):
            parts = train_step(model, opt, data[i:i + bs], beta)
            running = {k: running.get(k, 0.0) + v for k, v in parts.items()}  # expect: TEN501
            running_scalars = {k: running_scalars.get(k, 0.0) + v.item() for k, v in parts.items()}  # ok
            worst = parts["total"] if worst is None or parts["total"].item() > worst.item() else worst  # either
            steps += 1
        per_epoch.append({k: v / steps for k, v in running_scalars.items()})  # ok
        print(f"epoch {epoch}: " + " ".join(f"{k}={v:.3f}" for k, v in per_epoch[-1].items()))
    print("worst batch total", round(worst.item(), 3), "running total", round(running["total"].item(), 3))


if __name__ == "__main__":
    run()
