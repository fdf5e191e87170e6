"""GAN loop that rolls the generator/discriminator back to the last good state on divergence."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
Z = 4

G = nn.Sequential(nn.Linear(Z, 16), nn.ReLU(), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))


def real_batch(n=64):
    theta = torch.rand(n) * 6.283
    return torch.stack([theta.cos(), theta.sin()], 1) + 0.05 * torch.randn(n, 2)


last_good_G = last_good_D = None
g_hist = []
for step in range(60):
    real, z = real_batch(), torch.randn(64, Z)
    fake = G(z)
    d_loss = F.softplus(-D(real)).mean() + F.softplus(D(fake.detach())).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = F.softplus(-D(fake)).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    g_hist.append(g_loss.item())
    if step % 10 == 0:
        last_good_G = {k: v for k, v in G.state_dict().items()}  # expect: TEN402
        last_good_D = copy.deepcopy(D.state_dict())  # ok
        d_norm = sum(v.norm() for v in D.state_dict().values()).item()  # ok
    if step == 45 or g_loss.item() > 10:
        G.load_state_dict(last_good_G)
        D.load_state_dict(last_good_D)
print("rolled back; recent g losses", [round(v, 3) for v in g_hist[-3:]], d_norm)
