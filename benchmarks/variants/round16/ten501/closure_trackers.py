"""Variational autoencoder with closure-based running statistics."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def make_tracker():
    values = []

    def track(v):
        values.append(v)

    def mean():
        return sum(values) / max(len(values), 1)

    return track, mean


def make_running_mean():
    total, count = 0.0, 0

    def update(v):
        nonlocal total, count
        total = total + v
        count += 1
        return total / count

    return update


class VAE(nn.Module):
    def __init__(self, d=16, z=4):
        super().__init__()
        self.enc = nn.Linear(d, 32)
        self.mu = nn.Linear(32, z)
        self.logvar = nn.Linear(32, z)
        self.dec = nn.Sequential(nn.Linear(z, 32), nn.ReLU(), nn.Linear(32, d))

    def forward(self, x):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar


def main():
    data = torch.rand(256, 16)
    model = VAE()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    track_recon, recon_mean = make_tracker()
    track_active, active_mean = make_tracker()
    running_kl = make_running_mean()
    running_loss = make_running_mean()

    for it in range(16):
        x = data[torch.randint(0, 256, (32,))]
        recon, mu, logvar = model(x)
        rec = F.mse_loss(recon, x, reduction="sum") / x.shape[0]
        kl = -0.5 * torch.mean(torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1))
        loss = rec + 0.5 * kl
        opt.zero_grad()
        loss.backward()
        opt.step()

        track_recon(rec)  # expect: TEN501
        avg_kl = running_kl(kl)  # expect: TEN501
        track_active((mu.var(0) > 0.01).sum().item())  # ok
        avg_loss = running_loss(loss.detach())  # ok
        if it % 5 == 0:
            print(f"it {it}: loss {avg_loss.item():.3f} kl {avg_kl.item():.3f} "
                  f"recon {float(recon_mean()):.3f} active {active_mean():.1f}")


if __name__ == "__main__":
    main()
