"""WGAN-GP critic updates with gradient-penalty bookkeeping."""
import torch
import torch.nn as nn

torch.manual_seed(0)

G = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
optD = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.0, 0.9))
optG = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.0, 0.9))


def gradient_penalty(critic, real, fake):
    eps = torch.rand(real.size(0), 1)
    inter = (eps * real + (1 - eps) * fake).requires_grad_(True)
    grads = torch.autograd.grad(critic(inter).sum(), inter, create_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


gp_history, gp_history_f = [], []
w_estimate = 0.0
w_estimate_f = 0.0
for it in range(6):
    for _ in range(2):
        real = torch.randn(16, 2) + 3
        fake = G(torch.randn(16, 2)).detach()
        d_real, d_fake = D(real).mean(), D(fake).mean()
        gp = gradient_penalty(D, real, fake)
        lossD = d_fake - d_real + 10 * gp
        optD.zero_grad()
        lossD.backward()
        optD.step()
        gp_history.append(gp)  # expect: TEN501
        gp_history_f.append(gp.item())  # ok
    w_estimate += d_real - d_fake  # expect: TEN501
    w_estimate_f += (d_real - d_fake).item()  # ok
    lossG = -D(G(torch.randn(16, 2))).mean()
    optG.zero_grad()
    lossG.backward()
    optG.step()
print(f"W {float(w_estimate) / 6:.4f} {w_estimate_f / 6:.4f} gp {sum(gp_history_f) / len(gp_history_f):.4f} n={len(gp_history)}")
