"""Tiny DCGAN-style loop on 1x8x8 'images' with a history pool for the critic."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class ImagePool:
    """Keeps previously generated images and mixes them into the D batch."""

    def __init__(self, size=32):
        self.size = size
        self.images = []

    def query(self, batch):
        out = []
        for img in batch:
            img = img.unsqueeze(0)
            if len(self.images) < self.size:
                self.images.append(img)
                out.append(img)
            elif random.random() < 0.5:
                j = random.randrange(self.size)
                out.append(self.images[j].clone())
                self.images[j] = img
            else:
                out.append(img)
        return torch.cat(out, 0)


def generator(nz=8):
    return nn.Sequential(nn.Linear(nz, 64), nn.ReLU(), nn.Linear(64, 64), nn.Tanh(),
                         nn.Unflatten(1, (1, 8, 8)))


def discriminator():
    return nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))


def train(steps=4, bs=6, nz=8):
    G, D = generator(nz), discriminator()
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
    pool = ImagePool()
    fixed_z = torch.randn(4, nz)
    g_hist, d_hist, d_real_scores, d_fake_scores, samples = [], [], [], [], []
    ones, zeros = torch.ones(bs, 1), torch.zeros(bs, 1)

    for step in range(steps):
        real = torch.rand(bs, 1, 8, 8) * 2 - 1
        fake = G(torch.randn(bs, nz))

        # generator update
        g_loss = F.binary_cross_entropy_with_logits(D(fake), ones)
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()

        # discriminator update on real + pooled history
        pooled = pool.query(fake)  # expect: TEN501
        d_real = D(real)
        d_fake = D(pooled.detach())
        d_loss = 0.5 * (F.binary_cross_entropy_with_logits(d_real, ones)
                        + F.binary_cross_entropy_with_logits(d_fake, zeros))
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()

        g_hist.append(g_loss.item())  # ok
        d_hist.append(float(d_loss))  # ok
        d_real_scores.append(d_real.mean())  # expect: TEN501
        d_fake_scores.append(torch.sigmoid(d_fake).mean().detach())  # ok
        with torch.no_grad():
            samples.append(G(fixed_z))  # ok
    return g_hist, d_hist, d_real_scores, d_fake_scores, samples


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    g_hist, d_hist, *_ = train()
    print(f"G {g_hist[-1]:.3f}  D {d_hist[-1]:.3f}")
