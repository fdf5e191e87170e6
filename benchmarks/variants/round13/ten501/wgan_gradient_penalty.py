"""WGAN-GP on 2-D toy points; the critic is stepped several times per generator step."""
from collections import defaultdict

import torch
import torch.nn as nn


def mlp(i, o, h=32):
    return nn.Sequential(nn.Linear(i, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, o))


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1)
    mix = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    score = critic(mix)
    grads, = torch.autograd.grad(score.sum(), mix, create_graph=True)
    norms = grads.norm(2, dim=1)
    return ((norms - 1) ** 2).mean(), norms


def sample_real(n):
    angle = torch.rand(n) * 6.283
    return torch.stack([angle.cos(), angle.sin()], 1) + 0.05 * torch.randn(n, 2)


class WGANGP:
    def __init__(self, nz=4, lam=10.0, n_critic=3):
        self.G, self.C = mlp(nz, 2), mlp(2, 1)
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=1e-4, betas=(0.0, 0.9))
        self.opt_c = torch.optim.Adam(self.C.parameters(), lr=1e-4, betas=(0.0, 0.9))
        self.nz, self.lam, self.n_critic = nz, lam, n_critic
        self.history = defaultdict(list)

    def critic_step(self, real):
        fake = self.G(torch.randn(real.size(0), self.nz)).detach()
        c_real, c_fake = self.C(real).mean(), self.C(fake).mean()
        gp, norms = gradient_penalty(self.C, real, fake)
        loss = c_fake - c_real + self.lam * gp
        self.opt_c.zero_grad()
        loss.backward()
        self.opt_c.step()
        self.history["gp"].append(gp)  # expect: TEN501
        self.history["grad_norm"].append(norms.mean())  # expect: TEN501
        self.history["w_dist"].append((c_real - c_fake).detach())  # ok
        self.history["critic"].append(float(loss))  # ok

    def generator_step(self, n):
        fake = self.G(torch.randn(n, self.nz))
        g_loss = -self.C(fake).mean()
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        self.history["fake_mean"].append(fake.mean(0))  # expect: TEN501
        self.history["gen"].append(g_loss.item())  # ok

    def fit(self, iters=3, bs=16):
        for it in range(iters):
            for _ in range(self.n_critic):
                self.critic_step(sample_real(bs))
            self.generator_step(bs)
            with torch.no_grad():
                spread = self.G(torch.randn(64, self.nz)).std(0).mean()
            self.history["spread"].append(spread)  # ok
        return self.history


if __name__ == "__main__":
    torch.manual_seed(0)
    hist = WGANGP().fit()
    print({k: len(v) for k, v in hist.items()})
