"""DCGAN-style training loop on 2-D toy data (MLP generator/discriminator)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

nz = 4
netG = nn.Sequential(nn.Linear(nz, 32), nn.ReLU(), nn.Linear(32, 2))
netD = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1), nn.Sigmoid())
criterion = nn.BCELoss()
optD = torch.optim.Adam(netD.parameters(), lr=2e-3, betas=(0.5, 0.999))
optG = torch.optim.Adam(netG.parameters(), lr=2e-3, betas=(0.5, 0.999))
fixed_noise = torch.randn(8, nz)

G_losses, D_losses = [], []
D_x_hist, D_G_z_hist = [], []
img_list, img_list_ok = [], []
real_label, fake_label = 1.0, 0.0

for epoch in range(3):
    for i in range(6):
        real = torch.randn(16, 2) * 0.5 + torch.tensor([2.0, -1.0])
        b = real.size(0)
        # (1) update D
        netD.zero_grad()
        label = torch.full((b,), real_label)
        output = netD(real).view(-1)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean()
        noise = torch.randn(b, nz)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake.detach()).view(-1)
        errD_fake = criterion(output, label)
        errD_fake.backward()
        D_G_z1 = output.mean().item()
        errD = errD_real + errD_fake
        optD.step()
        # (2) update G
        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake).view(-1)
        errG = criterion(output, label)
        errG.backward()
        optG.step()

        G_losses.append(errG)  # expect: TEN501
        D_losses.append(errD.item())  # ok
        D_x_hist.append(D_x)  # expect: TEN501
        D_G_z_hist.append(D_G_z1)  # ok
    img_list.append(netG(fixed_noise))  # expect: TEN501
    with torch.no_grad():
        img_list_ok.append(netG(fixed_noise))  # ok

print("G", round(sum(float(g) for g in G_losses) / len(G_losses), 4), "D", round(sum(D_losses) / len(D_losses), 4))
print("D(x)", round(float(D_x_hist[-1]), 4), "D(G(z))", round(D_G_z_hist[-1], 4))
print("samples", torch.stack(img_list).shape, round(float((img_list[-1] - img_list_ok[-1]).abs().sum()), 6))
