"""WGAN-GP on 1-D data: critic updates with a gradient penalty."""
import torch
import torch.nn as nn

torch.manual_seed(0)

LAMBDA_GP, N_CRITIC, BATCH = 10.0, 3, 64


def real_samples(n):
    return torch.cat([torch.randn(n // 2, 2) * 0.3 + 1.5, torch.randn(n - n // 2, 2) * 0.3 - 1.5])


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = critic(interp)
    grads = torch.autograd.grad(outputs=out.sum(), inputs=interp, create_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean(), grads


generator = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
critic = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
opt_g = torch.optim.Adam(generator.parameters(), lr=1e-3, betas=(0.5, 0.9))
opt_c = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.5, 0.9))

gp_log, w_dist_hist, interp_grad_norms, critic_grad_norms, g_losses = [], [], [], [], []

for gen_iter in range(6):
    for _ in range(N_CRITIC):
        real = real_samples(BATCH)
        fake = generator(torch.randn(BATCH, 4)).detach()
        d_real, d_fake = critic(real).mean(), critic(fake).mean()
        gp, grads = gradient_penalty(critic, real, fake)
        c_loss = d_fake - d_real + LAMBDA_GP * gp
        opt_c.zero_grad()
        c_loss.backward()
        critic_grad_norms.append(torch.stack([p.grad.norm() for p in critic.parameters()]).sum())  # ok
        opt_c.step()

        w_dist = d_real - d_fake
        gp_log.append(gp.item())  # ok
        w_dist_hist.append(w_dist)  # expect: TEN501
        interp_grad_norms.append(grads.norm(dim=1).mean())  # expect: TEN501

    z = torch.randn(BATCH, 4)
    g_loss = -critic(generator(z)).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    g_losses.append(g_loss.detach().clone())  # ok
    print(f"gen iter {gen_iter}: W {w_dist.item():.3f} gp {gp_log[-1]:.3f} g_loss {g_loss.item():.3f}")
