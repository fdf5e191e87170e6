"""Train a small convolutional VAE on MNIST and dump samples every epoch."""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms
from torchvision.utils import save_image


class ConvVAE(nn.Module):
    def __init__(self, z_dim=20):
        super().__init__()
        self.enc = nn.Sequential(
            nn.Conv2d(1, 32, 4, 2, 1), nn.ReLU(),
            nn.Conv2d(32, 64, 4, 2, 1), nn.ReLU(),
            nn.Flatten(),
        )
        self.fc_mu = nn.Linear(64 * 7 * 7, z_dim)
        self.fc_logvar = nn.Linear(64 * 7 * 7, z_dim)
        self.fc_dec = nn.Linear(z_dim, 64 * 7 * 7)
        self.dec = nn.Sequential(
            nn.ConvTranspose2d(64, 32, 4, 2, 1), nn.ReLU(),
            nn.ConvTranspose2d(32, 1, 4, 2, 1),
        )

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        return mu + torch.randn_like(std) * std

    def decode(self, z):
        return self.dec(self.fc_dec(z).view(-1, 64, 7, 7))

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.fc_mu(h), self.fc_logvar(h)
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="./data")
    p.add_argument("--out", default="./results")
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--z-dim", type=int, default=20)
    p.add_argument("--beta", type=float, default=1.0)
    p.add_argument("--log-interval", type=int, default=100)
    return p.parse_args()


def main():
    args = parse_args()
    os.makedirs(args.out, exist_ok=True)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ds = datasets.MNIST(args.data, train=True, download=True, transform=transforms.ToTensor())
    loader = DataLoader(ds, batch_size=args.batch_size, shuffle=True, num_workers=2)

    model = ConvVAE(args.z_dim).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(1, args.epochs + 1):
        model.train()
        total_rec, total_kl = 0.0, 0.0
        for i, (x, _) in enumerate(loader):
            x = x.to(device)
            logits, mu, logvar = model(x)
            rec = F.binary_cross_entropy_with_logits(logits, x, reduction="sum")
            kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
            loss = (rec + args.beta * kl) / x.size(0)

            opt.zero_grad()
            loss.backward()
            opt.step()

            total_rec += rec  # expect: TEN501
            total_kl += kl.item()
            if i % args.log_interval == 0:
                print(f"epoch {epoch} [{i * len(x)}/{len(ds)}] loss {loss.item():.4f}")

        n = len(ds)
        print(f"====> epoch {epoch} rec {total_rec / n:.4f} kl {total_kl / n:.4f}")

        model.eval()
        with torch.no_grad():
            z = torch.randn(64, args.z_dim, device=device)
            sample = torch.sigmoid(model.decode(z))
            save_image(sample.cpu(), os.path.join(args.out, f"sample_{epoch}.png"))
        torch.save(model.state_dict(), os.path.join(args.out, "vae.pt"))


if __name__ == "__main__":
    main()
