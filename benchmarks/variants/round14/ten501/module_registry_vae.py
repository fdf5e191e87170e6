"""VAE training that reports through a module-level metrics registry."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

_HISTORY = defaultdict(list)
GLOBAL_STEP = 0


def record(name, value):
    _HISTORY[name].append(value)


def record_scalar(name, value):
    _HISTORY[name].append(float(value))


def dump(every=4):
    for name, vals in sorted(_HISTORY.items()):
        print(f"{name:>6}: " + " ".join(f"{float(v):.3f}" for v in vals[::every]))


class ConvVAE(nn.Module):
    def __init__(self, z=3):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv1d(1, 4, 5, stride=2), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 14, 2 * z))
        self.dec = nn.Sequential(nn.Linear(z, 32), nn.ReLU(), nn.Linear(32, 32))

    def forward(self, x):
        mu, logvar = self.enc(x.unsqueeze(1)).chunk(2, -1)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar


def train(steps=12, bs=16):
    global GLOBAL_STEP
    torch.manual_seed(0)
    t = torch.linspace(0, 6.28, 32)
    data = torch.sin(t * torch.rand(128, 1) * 3 + torch.rand(128, 1) * 6.28)
    model = ConvVAE()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(steps):
        batch = data[torch.randint(0, 128, (bs,))]
        out, mu, logvar = model(batch)
        recon = F.mse_loss(out, batch)
        kl = -0.5 * (1 + logvar - mu ** 2 - logvar.exp()).mean()
        beta = min(1.0, step / 8)
        loss = recon + beta * kl
        opt.zero_grad()
        loss.backward()
        opt.step()
        record("recon", recon)  # expect: TEN501
        record("kl", kl.detach())  # ok
        record_scalar("elbo", recon + kl)  # ok
        record("beta", beta)  # ok
        GLOBAL_STEP += 1  # ok


if __name__ == "__main__":
    train()
    dump()
    print("steps:", GLOBAL_STEP)
