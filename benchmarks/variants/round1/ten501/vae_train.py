"""Train a small VAE on synthetic data and log per-term losses."""
import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

log = logging.getLogger("vae")


class VAE(nn.Module):
    def __init__(self, d_in=32, d_z=4):
        super().__init__()
        self.enc = nn.Linear(d_in, 2 * d_z)
        self.dec = nn.Linear(d_z, d_in)

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--beta", type=float, default=1.0)
    p.add_argument("--lr", type=float, default=1e-3)
    return p.parse_args([])


def main():
    args = parse_args()
    data = TensorDataset(torch.randn(64, 32))
    loader = DataLoader(data, batch_size=16, shuffle=True)
    model = VAE()
    optim = torch.optim.Adam(model.parameters(), lr=args.lr)
    epoch_losses = []
    for epoch in range(args.epochs):
        total_rec, total_kl, total = 0.0, 0.0, 0.0
        for (x,) in loader:
            recon, mu, logvar = model(x)
            rec = F.mse_loss(recon, x, reduction="sum") / x.size(0)
            kl = -0.5 * torch.mean(torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1))
            loss = rec + args.beta * kl
            optim.zero_grad()
            loss.backward()
            optim.step()
            total_rec += rec  # expect: TEN501
            total_kl += kl  # expect: TEN501
            total += loss.item()  # ok
            epoch_losses.append(loss)  # expect: TEN501
        log.info("epoch %d rec %.3f kl %.3f total %.3f", epoch, float(total_rec), float(total_kl), total)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
