"""WGAN-GP critic update with gradient penalty bookkeeping."""
import torch
import torch.nn as nn

torch.manual_seed(0)
critic = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
gen = nn.Linear(2, 4)
opt_c = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.0, 0.9))
gp_hist, gp_norms, wdist = [], [], []
for it in range(4):
    real = torch.randn(8, 4)
    with torch.no_grad():
        fake = gen(torch.randn(8, 2))
    eps = torch.rand(8, 1)
    mix = (eps * real + (1 - eps) * fake).requires_grad_(True)
    grad = torch.autograd.grad(critic(mix).sum(), mix, create_graph=True)[0]
    gp = ((grad.norm(2, dim=1) - 1) ** 2).mean()
    w = critic(real).mean() - critic(fake).mean()
    loss = -w + 10.0 * gp
    opt_c.zero_grad()
    loss.backward()
    opt_c.step()
    gp_hist.append(gp)  # expect: TEN501
    gp_norms.append(grad.norm(2, dim=1).mean().detach())  # ok
    wdist.append(w.item())  # ok
print(len(gp_hist), float(gp_norms[-1]), wdist[-1])
