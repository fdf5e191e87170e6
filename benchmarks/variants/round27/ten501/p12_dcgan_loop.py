"""DCGAN-tutorial style loop on 2-D toy data (G/D losses and D(x), D(G(z)) stats)."""
import torch
import torch.nn as nn

torch.manual_seed(0)

nz = 4
netG = nn.Sequential(nn.Linear(nz, 16), nn.ReLU(), nn.Linear(16, 2))
netD = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1), nn.Sigmoid())
criterion = nn.BCELoss()
optD = torch.optim.Adam(netD.parameters(), lr=2e-3, betas=(0.5, 0.999))
optG = torch.optim.Adam(netG.parameters(), lr=2e-3, betas=(0.5, 0.999))
real_label, fake_label = 1.0, 0.0

G_losses, D_losses, Dx_hist, DGz_hist = [], [], [], []
img_list = []
for i in range(10):
    real = torch.randn(32, 2) * 0.5 + torch.tensor([2.0, -1.0])
    b = real.size(0)
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

    netG.zero_grad()
    label.fill_(real_label)
    output = netD(fake).view(-1)
    errG = criterion(output, label)
    errG.backward()
    optG.step()

    G_losses.append(errG)  # expect: TEN501
    D_losses.append(errD.item())  # ok
    Dx_hist.append(D_x)  # expect: TEN501
    DGz_hist.append(D_G_z1)  # ok
    if i % 2 == 0:
        img_list.append(fake[:4])  # expect: TEN501

print("G", [round(g.item(), 3) for g in G_losses[-3:]])
print("D", [round(d, 3) for d in D_losses[-3:]])
print("D(x)", round(Dx_hist[-1].item(), 3), "D(G(z))", round(DGz_hist[-1], 3))
