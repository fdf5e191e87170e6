import random

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)

G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()

d_real_hist, d_fake_hist = [], []
g_hist = []
d_loss_hist = []
fake_pool, fake_pool_ok = [], []

for it in range(10):
    real = torch.randn(32, 2) * 0.5 + torch.tensor([2.0, -1.0])
    z = torch.randn(32, 4)
    fake = G(z)

    # --- discriminator
    d_real = D(real)
    d_fake = D(fake.detach())
    loss_d = bce(d_real, torch.ones_like(d_real)) + bce(d_fake, torch.zeros_like(d_fake))
    opt_d.zero_grad()
    loss_d.backward()
    opt_d.step()

    # --- generator
    d_gen = D(fake)
    loss_g = bce(d_gen, torch.ones_like(d_gen))
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()

    d_real_hist.append(torch.sigmoid(d_real).mean())  # expect: TEN501
    d_fake_hist.append(torch.sigmoid(d_fake).mean().item())  # ok
    g_hist.append(loss_g.item())  # ok
    d_loss_hist.append(loss_d)  # expect: TEN501
    if random.random() < 0.7:
        fake_pool.append(fake)  # expect: TEN501
        fake_pool_ok.append(fake.detach())  # ok

print("D(real) trend:", [round(float(v), 3) for v in d_real_hist[::3]])
print("D(fake) trend:", [round(v, 3) for v in d_fake_hist[::3]])
print("G loss:", round(sum(g_hist) / len(g_hist), 4), "pool", len(fake_pool), len(fake_pool_ok))
