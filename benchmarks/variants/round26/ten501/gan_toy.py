"""DCGAN-tutorial style loop on 2-D Gaussian data."""
import torch
import torch.nn as nn

torch.manual_seed(0)

nz = 4
netG = nn.Sequential(nn.Linear(nz, 16), nn.LeakyReLU(0.2), nn.Linear(16, 2))
netD = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
criterion = nn.BCEWithLogitsLoss()
optD = torch.optim.Adam(netD.parameters(), lr=2e-3, betas=(0.5, 0.999))
optG = torch.optim.Adam(netG.parameters(), lr=2e-3, betas=(0.5, 0.999))

G_losses, D_losses = [], []
samples, samples_ok = [], []
D_x_hist = []
for i in range(10):
    real = torch.randn(32, 2) * 0.5 + torch.tensor([2.0, -1.0])
    noise = torch.randn(32, nz)
    fake = netG(noise)
    # (1) update D
    optD.zero_grad()
    out_real = netD(real)
    errD_real = criterion(out_real, torch.ones_like(out_real))
    out_fake = netD(fake.detach())
    errD_fake = criterion(out_fake, torch.zeros_like(out_fake))
    errD = errD_real + errD_fake
    errD.backward()
    optD.step()
    D_x = torch.sigmoid(out_real).mean()
    # (2) update G
    optG.zero_grad()
    out = netD(fake)
    errG = criterion(out, torch.ones_like(out))
    errG.backward()
    optG.step()
    G_losses.append(errG)  # expect: TEN501
    D_losses.append(errD.item())  # ok
    D_x_hist.append(D_x)  # expect: TEN501
    if i % 3 == 0:
        samples.append(fake)  # expect: TEN501
        samples_ok.append(fake.detach().clone())  # ok
print("G", [round(g.item(), 3) for g in G_losses[-3:]], "D", [round(d, 3) for d in D_losses[-3:]])
print("D(x)", round(D_x_hist[-1].item(), 3), "samples", len(samples), torch.cat(samples_ok).mean(0).tolist())
