"""WGAN-GP critic/generator trainer class with a gradient penalty history."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class WGANGP:
    def __init__(self, lam=10.0, n_critic=2):
        self.G = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 2))
        self.D = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
        self.optG = torch.optim.Adam(self.G.parameters(), lr=1e-3, betas=(0.0, 0.9))
        self.optD = torch.optim.Adam(self.D.parameters(), lr=1e-3, betas=(0.0, 0.9))
        self.lam = lam
        self.n_critic = n_critic
        self.gp_history = []
        self.w_dist = []
        self.g_history = []

    def gradient_penalty(self, real, fake):
        a = torch.rand(real.size(0), 1)
        inter = (a * real + (1 - a) * fake).requires_grad_(True)
        grad = torch.autograd.grad(self.D(inter).sum(), inter, create_graph=True)[0]
        return ((grad.norm(2, dim=1) - 1) ** 2).mean()

    def critic_step(self, real):
        fake = self.G(torch.randn(real.size(0), 3)).detach()
        gp = self.gradient_penalty(real, fake)
        d_real, d_fake = self.D(real).mean(), self.D(fake).mean()
        loss = d_fake - d_real + self.lam * gp
        self.optD.zero_grad()
        loss.backward()
        self.optD.step()
        self.gp_history.append(gp)  # expect: TEN501
        self.w_dist.append((d_real - d_fake).item())  # ok
        self.w_raw = getattr(self, "w_raw", 0.0) + (d_real - d_fake)  # expect: TEN501

    def generator_step(self, n):
        g_loss = -self.D(self.G(torch.randn(n, 3))).mean()
        self.optG.zero_grad()
        g_loss.backward()
        self.optG.step()
        self.g_history.append(g_loss.detach())  # ok


gan = WGANGP()
for it in range(5):
    for _ in range(gan.n_critic):
        gan.critic_step(torch.randn(16, 2) + 3.0)
    gan.generator_step(16)
print("gp", round(gan.gp_history[-1].item(), 4), "W", round(gan.w_dist[-1], 4), "G", round(gan.g_history[-1].item(), 4))
