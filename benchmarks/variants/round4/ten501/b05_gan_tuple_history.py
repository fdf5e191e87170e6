"""DCGAN-ish loop on 2-D toy data (8 gaussians)."""
import math

import torch
import torch.nn as nn

Z_DIM = 8


def sample_real(bs):
    k = torch.randint(0, 8, (bs,))
    angle = k.float() * (2 * math.pi / 8)
    centers = torch.stack([angle.cos(), angle.sin()], dim=1) * 2.0
    return centers + 0.05 * torch.randn(bs, 2)


G = nn.Sequential(nn.Linear(Z_DIM, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 2))
D = nn.Sequential(nn.Linear(2, 128), nn.LeakyReLU(0.2), nn.Linear(128, 128), nn.LeakyReLU(0.2), nn.Linear(128, 1))

opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()

history = []
d_real_scores = []
g_losses = []

for it in range(3000):
    real = sample_real(128)
    z = torch.randn(128, Z_DIM)
    fake = G(z)

    # --- discriminator ---
    d_real = D(real)
    d_fake = D(fake.detach())
    d_loss = bce(d_real, torch.ones_like(d_real)) + bce(d_fake, torch.zeros_like(d_fake))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    # --- generator ---
    g_out = D(fake)
    g_loss = bce(g_out, torch.ones_like(g_out))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()

    history.append((d_loss, g_loss))  # expect: TEN501
    d_real_scores.append(torch.sigmoid(d_real).mean())  # expect: TEN501
    g_losses.append(g_loss.item())  # ok

    if it % 500 == 0:
        last_d, last_g = history[-1]
        print(f"it {it}: D {last_d.item():.3f}  G {last_g.item():.3f}  D(x) {d_real_scores[-1].item():.3f}")

torch.save({"G": G.state_dict(), "D": D.state_dict()}, "/tmp/gan_8g.pt")
