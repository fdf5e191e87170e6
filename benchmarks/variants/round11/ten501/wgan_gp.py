import torch
import torch.nn as nn


class Critic(nn.Module):
    def __init__(self, d=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 256), nn.LeakyReLU(0.2), nn.Linear(256, 256),
                                 nn.LeakyReLU(0.2), nn.Linear(256, 1))

    def forward(self, x):
        return self.net(x)


def gradient_penalty(critic, real, fake):
    a = torch.rand(real.size(0), 1)
    mix = (a * real + (1 - a) * fake).requires_grad_(True)
    g, = torch.autograd.grad(critic(mix).sum(), mix, create_graph=True)
    return ((g.norm(2, dim=1) - 1) ** 2).mean()


def train(sample_real, z_dim=8, iters=20_000, n_critic=5, lam=10.0):
    G = nn.Sequential(nn.Linear(z_dim, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 2))
    C = Critic()
    opt_g = torch.optim.Adam(G.parameters(), 1e-4, betas=(0.5, 0.9))
    opt_c = torch.optim.Adam(C.parameters(), 1e-4, betas=(0.5, 0.9))
    gp_hist, wdist_hist, g_hist = [], [], []
    for it in range(iters):
        for _ in range(n_critic):
            real = sample_real(256)
            with torch.no_grad():
                fake = G(torch.randn(256, z_dim))
            c_real, c_fake = C(real).mean(), C(fake).mean()
            gp = gradient_penalty(C, real, fake)
            loss_c = c_fake - c_real + lam * gp
            opt_c.zero_grad()
            loss_c.backward()
            opt_c.step()
        gp_hist.append(gp)  # expect: TEN501
        wdist_hist.append((c_real - c_fake).item())  # ok

        g_loss = -C(G(torch.randn(256, z_dim))).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        g_hist.append(g_loss.detach())  # ok
        if it % 1000 == 0:
            print(it, wdist_hist[-1], float(gp_hist[-1]), g_hist[-1].item())
    return G, C
