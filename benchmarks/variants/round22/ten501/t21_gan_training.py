"""1-D GAN with the usual bookkeeping: loss curves, sample snapshots, an image pool."""
import random

import torch
from torch import nn

torch.manual_seed(0)
random.seed(0)

Z = 4
G = nn.Sequential(nn.Linear(Z, 16), nn.LeakyReLU(0.2), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1), nn.Sigmoid())
opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
bce = nn.BCELoss()
fixed_noise = torch.randn(5, Z)

G_losses, D_losses = [], []
d_real_mean = 0.0
d_fake_acc = 0.0
fixed_samples, samples_ok = [], []
fake_pool, fake_pool_ok = [], []

for it in range(8):
    real = torch.randn(16, 2) * 0.5 + torch.tensor([2.0, -1.0])
    ones, zeros = torch.ones(16, 1), torch.zeros(16, 1)

    # discriminator
    fake = G(torch.randn(16, Z))
    real_out = D(real)
    fake_out = D(fake.detach())
    d_loss = bce(real_out, ones) + bce(fake_out, zeros)
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    # generator
    g_loss = bce(D(fake), ones)
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()

    G_losses.append(g_loss)  # expect: TEN501
    D_losses.append(d_loss.item())  # ok
    d_real_mean += real_out.mean()  # expect: TEN501
    d_fake_acc += (fake_out.detach() < 0.5).float().mean()  # ok
    fake_pool.append(fake)  # expect: TEN501
    fake_pool_ok.append(fake.detach())  # ok
    if it % 2 == 0:
        fixed_samples.append(G(fixed_noise))  # expect: TEN501
        with torch.no_grad():
            samples_ok.append(G(fixed_noise))  # ok
    if len(fake_pool_ok) > 4:
        fake_pool_ok.pop(random.randrange(len(fake_pool_ok)))

print(round(sum(D_losses) / len(D_losses), 4), float(d_fake_acc) / 8, len(fixed_samples), len(fake_pool_ok))
print(float(G_losses[-1].detach()), float(d_real_mean.detach()) / 8)
