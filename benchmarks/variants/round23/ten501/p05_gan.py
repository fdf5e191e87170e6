"""Minimal GAN with an image pool for the discriminator."""
import random

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)
G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 6))
D = nn.Sequential(nn.Linear(6, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()

d_losses, g_losses = [], []
fake_bank, real_bank, pool = [], [], []
for it in range(5):
    real = torch.randn(8, 6) * 0.5 + 1.0
    noise = torch.randn(8, 4)
    fake = G(noise)

    opt_d.zero_grad()
    d_loss = bce(D(real), torch.ones(8, 1)) + bce(D(fake.detach()), torch.zeros(8, 1))
    d_loss.backward()
    opt_d.step()

    opt_g.zero_grad()
    g_loss = bce(D(fake), torch.ones(8, 1))
    g_loss.backward()
    opt_g.step()

    d_losses.append(d_loss)  # expect: TEN501
    g_losses.append(g_loss.item())  # ok
    fake_bank.append(fake)  # expect: TEN501
    real_bank.append(real)  # ok
    pool.append(fake.detach())  # ok
    if len(pool) > 3:
        pool.pop(random.randrange(len(pool)))
print(len(d_losses), sum(g_losses) / len(g_losses), len(fake_bank), len(pool))
