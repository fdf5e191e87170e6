"""WGAN-GP with n_critic discriminator steps per generator step."""
import torch
import torch.nn as nn

torch.manual_seed(0)
nz, d, n_critic, lambda_gp = 4, 8, 3, 10.0
G = nn.Sequential(nn.Linear(nz, 16), nn.ReLU(), nn.Linear(16, d))
D = nn.Sequential(nn.Linear(d, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_G = torch.optim.Adam(G.parameters(), lr=1e-4, betas=(0.0, 0.9))
opt_D = torch.optim.Adam(D.parameters(), lr=1e-4, betas=(0.0, 0.9))


def gradient_penalty(D, real, fake):
    alpha = torch.rand(real.size(0), 1)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    grads = torch.autograd.grad(D(interp).sum(), interp, create_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


wasserstein_d, gp_hist, log = [], [], {"critic": [], "g": []}
d_loss_total = torch.zeros(())
for g_step in range(4):
    critic_losses = []
    for _ in range(n_critic):
        real = torch.randn(8, d)
        fake = G(torch.randn(8, nz)).detach()
        d_real, d_fake = D(real).mean(), D(fake).mean()
        gp = gradient_penalty(D, real, fake)
        d_loss = d_fake - d_real + lambda_gp * gp
        opt_D.zero_grad()
        d_loss.backward()
        opt_D.step()
        critic_losses.append(d_loss)  # expect: TEN501
        gp_hist.append(gp.item())  # ok
        d_loss_total += d_loss.detach()  # ok
        wasserstein_d.append(d_real - d_fake)  # expect: TEN501
    log["critic"].append(torch.stack(critic_losses).mean())  # expect: TEN501
    g_loss = -D(G(torch.randn(8, nz))).mean()
    opt_G.zero_grad()
    g_loss.backward()
    opt_G.step()
    log["g"].append(g_loss.item())  # ok
print(len(wasserstein_d), float(d_loss_total), log["g"][-1])
