"""DCGAN-tutorial shaped loop on 2-D points."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

nz = 4
netG = nn.Sequential(nn.Linear(nz, 16), nn.ReLU(), nn.Linear(16, 2))
netD = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
criterion = nn.BCEWithLogitsLoss()
optD = torch.optim.Adam(netD.parameters(), lr=2e-3, betas=(0.5, 0.999))
optG = torch.optim.Adam(netG.parameters(), lr=2e-3, betas=(0.5, 0.999))
fixed_noise = torch.randn(8, nz)


def real_batch(n):
    theta = torch.rand(n) * 6.283
    return torch.stack([theta.cos(), theta.sin()], 1) * 2 + 0.05 * torch.randn(n, 2)


G_losses, D_losses = [], []
img_list, samples = [], []
D_x_total = 0.0
for iters in range(12):
    real = real_batch(16)
    netD.zero_grad()
    out_real = netD(real).view(-1)
    errD_real = criterion(out_real, torch.ones(16))
    noise = torch.randn(16, nz)
    fake = netG(noise)
    out_fake = netD(fake.detach()).view(-1)
    errD_fake = criterion(out_fake, torch.zeros(16))
    errD = errD_real + errD_fake
    errD.backward()
    optD.step()

    netG.zero_grad()
    errG = criterion(netD(fake).view(-1), torch.ones(16))
    errG.backward()
    optG.step()

    G_losses.append(errG)  # expect: TEN501
    D_losses.append(errD.item())  # ok
    D_x_total += out_real.sigmoid().mean().item()  # ok
    if iters % 4 == 0:
        with torch.no_grad():
            img_list.append(netG(fixed_noise).detach().cpu())  # ok
        samples.append(netG(fixed_noise))  # expect: TEN501

print(len(G_losses), D_losses[-1], len(img_list), len(samples), D_x_total / 12)
