"""Vanilla GAN fitting a 2-D mixture of Gaussians, DCGAN-tutorial style bookkeeping."""
import math

import torch
import torch.nn as nn


def sample_mixture(n, modes=4, radius=2.0):
    k = torch.randint(0, modes, (n,))
    angle = k.float() * (2 * math.pi / modes)
    centers = torch.stack([angle.cos(), angle.sin()], dim=1) * radius
    return centers + 0.1 * torch.randn(n, 2)


def mlp(inp, out, hidden=32, final=None):
    layers = [nn.Linear(inp, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, out)]
    if final is not None:
        layers.append(final)
    return nn.Sequential(*layers)


def main(iters=12, batch=64, nz=8):
    torch.manual_seed(0)
    netG, netD = mlp(nz, 2), mlp(2, 1, final=nn.Sigmoid())
    criterion = nn.BCELoss()
    optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
    fixed_noise = torch.randn(16, nz)
    real_label, fake_label = 1.0, 0.0

    G_losses, D_losses, D_x, img_list = [], [], [], []
    d_gz_running = 0.0
    for it in range(iters):
        # (1) update D: maximize log(D(x)) + log(1 - D(G(z)))
        netD.zero_grad()
        real = sample_mixture(batch)
        label = torch.full((batch,), real_label)
        output_real = netD(real).view(-1)
        errD_real = criterion(output_real, label)
        errD_real.backward()
        noise = torch.randn(batch, nz)
        fake = netG(noise)
        label.fill_(fake_label)
        output_fake = netD(fake.detach()).view(-1)
        errD_fake = criterion(output_fake, label)
        errD_fake.backward()
        errD = errD_real + errD_fake
        optD.step()

        # (2) update G: maximize log(D(G(z)))
        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake).view(-1)
        errG = criterion(output, label)
        errG.backward()
        optG.step()

        G_losses.append(errG)  # expect: TEN501
        D_losses.append(errD.item())  # ok
        D_x.append(output_real.mean().item())  # ok
        d_gz_running = d_gz_running + output_fake.mean()  # expect: TEN501
        if it % 4 == 0:
            with torch.no_grad():
                snap = netG(fixed_noise).detach().cpu()
            img_list.append(snap)  # ok

    print(f"G loss {G_losses[-1].item():.3f}  D loss {D_losses[-1]:.3f}  D(x) {D_x[-1]:.3f}")
    print(f"mean D(G(z)) {d_gz_running.item() / iters:.3f}, snapshots {len(img_list)}")


if __name__ == "__main__":
    main()
