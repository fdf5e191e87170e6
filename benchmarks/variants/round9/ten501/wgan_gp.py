"""WGAN-GP on 64x64 images."""
import itertools

import torch
import torch.nn as nn
import torchvision.utils as vutils


class Critic(nn.Module):
    def __init__(self, ch=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, ch, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(ch, ch * 2, 4, 2, 1), nn.InstanceNorm2d(ch * 2, affine=True), nn.LeakyReLU(0.2),
            nn.Conv2d(ch * 2, ch * 4, 4, 2, 1), nn.InstanceNorm2d(ch * 4, affine=True), nn.LeakyReLU(0.2),
            nn.Conv2d(ch * 4, ch * 8, 4, 2, 1), nn.InstanceNorm2d(ch * 8, affine=True), nn.LeakyReLU(0.2),
            nn.Conv2d(ch * 8, 1, 4, 1, 0),
        )

    def forward(self, x):
        return self.net(x).view(-1)


class Generator(nn.Module):
    def __init__(self, z_dim=128, ch=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.ConvTranspose2d(z_dim, ch * 8, 4, 1, 0), nn.BatchNorm2d(ch * 8), nn.ReLU(True),
            nn.ConvTranspose2d(ch * 8, ch * 4, 4, 2, 1), nn.BatchNorm2d(ch * 4), nn.ReLU(True),
            nn.ConvTranspose2d(ch * 4, ch * 2, 4, 2, 1), nn.BatchNorm2d(ch * 2), nn.ReLU(True),
            nn.ConvTranspose2d(ch * 2, ch, 4, 2, 1), nn.BatchNorm2d(ch), nn.ReLU(True),
            nn.ConvTranspose2d(ch, 3, 4, 2, 1), nn.Tanh(),
        )

    def forward(self, z):
        return self.net(z.view(z.size(0), -1, 1, 1))


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1, 1, 1, device=real.device)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    scores = critic(interp)
    grads = torch.autograd.grad(scores.sum(), interp, create_graph=True)[0]
    return ((grads.flatten(1).norm(2, dim=1) - 1) ** 2).mean()


def train(loader, iters=100_000, z_dim=128, n_critic=5, lambda_gp=10.0, device="cuda"):
    G, D = Generator(z_dim).to(device), Critic().to(device)
    g_opt = torch.optim.Adam(G.parameters(), lr=1e-4, betas=(0.0, 0.9))
    d_opt = torch.optim.Adam(D.parameters(), lr=1e-4, betas=(0.0, 0.9))
    data = itertools.cycle(loader)
    fixed_z = torch.randn(64, z_dim, device=device)
    wdist_hist, gp_hist, g_hist = [], [], []

    for it in range(iters):
        for _ in range(n_critic):
            real = next(data)[0].to(device)
            z = torch.randn(real.size(0), z_dim, device=device)
            with torch.no_grad():
                fake = G(z)
            d_real = D(real).mean()
            d_fake = D(fake).mean()
            gp = gradient_penalty(D, real, fake)
            d_loss = d_fake - d_real + lambda_gp * gp
            d_opt.zero_grad(set_to_none=True)
            d_loss.backward()
            d_opt.step()

        wdist_hist.append((d_real - d_fake).item())  # ok
        gp_hist.append(gp)  # expect: TEN501

        z = torch.randn(real.size(0), z_dim, device=device)
        g_loss = -D(G(z)).mean()
        g_opt.zero_grad(set_to_none=True)
        g_loss.backward()
        g_opt.step()
        g_hist.append(g_loss.detach())  # ok

        if it % 500 == 0:
            print(f"it {it} W {wdist_hist[-1]:.3f} gp {float(gp_hist[-1]):.3f} G {g_hist[-1].item():.3f}")
        if it % 5000 == 0:
            with torch.no_grad():
                samples = G(fixed_z)
            vutils.save_image(samples, f"wgan_{it:06d}.png", normalize=True, nrow=8)
    return G, D
