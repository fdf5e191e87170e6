"""VAE-style objective: per-term totals kept in dicts across epochs."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinyVAE(nn.Module):
    def __init__(self, d=8, z=2):
        super().__init__()
        self.enc = nn.Linear(d, 2 * z)
        self.dec = nn.Linear(z, d)

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        zs = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(zs), mu, logvar


def loss_terms(model, x):
    recon, mu, logvar = model(x)
    return {
        "recon": F.mse_loss(recon, x),
        "kl": -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp()),
    }


def main():
    data = torch.randn(64, 8)
    model = TinyVAE()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    epoch_terms = defaultdict(float)
    clean_terms = defaultdict(float)
    counts = defaultdict(int)
    log_terms = {}
    for epoch in range(3):
        for xb in data.split(16):
            terms = loss_terms(model, xb)
            total = sum(terms.values())
            opt.zero_grad()
            total.backward()
            opt.step()
            for k, v in terms.items():
                epoch_terms[k] += v  # expect: TEN501
                clean_terms[k] += v.item()  # ok
                counts[k] += 1  # ok
                log_terms.setdefault(k, []).append(v)  # expect: TEN501
    for k in clean_terms:
        print(k, round(clean_terms[k] / counts[k], 4), round(float(epoch_terms[k]) / counts[k], 4))


if __name__ == "__main__":
    main()
