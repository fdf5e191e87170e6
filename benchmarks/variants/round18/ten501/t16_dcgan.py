"""DCGAN-tutorial style loop (fully connected nets to stay tiny)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

nz = 4
netG = nn.Sequential(nn.Linear(nz, 16), nn.ReLU(), nn.Linear(16, 8), nn.Tanh())
netD = nn.Sequential(nn.Linear(8, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1), nn.Sigmoid())
criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
fixed_noise = torch.randn(4, nz)
dataloader = [torch.randn(6, 8).tanh() for _ in range(3)]
real_label, fake_label = 1.0, 0.0

img_list = []
img_list_cpu = []
G_losses = []
D_losses = []
D_x_hist = []
for epoch in range(2):
    for i, real in enumerate(dataloader):
        b_size = real.size(0)
        netD.zero_grad()
        label = torch.full((b_size,), real_label)
        output = netD(real).view(-1)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()

        noise = torch.randn(b_size, nz)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake.detach()).view(-1)
        errD_fake = criterion(output, label)
        errD_fake.backward()
        errD = errD_real + errD_fake
        optimizerD.step()

        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake).view(-1)
        errG = criterion(output, label)
        errG.backward()
        optimizerG.step()

        G_losses.append(errG)  # expect: TEN501
        D_losses.append(errD.item())  # ok
        D_x_hist.append(D_x)  # ok
        if i % 2 == 0:
            img_list.append(netG(fixed_noise))  # expect: TEN501
            with torch.no_grad():
                fake_vis = netG(fixed_noise).detach().cpu()
            img_list_cpu.append(fake_vis)  # ok

print(f"Loss_D {D_losses[-1]:.4f} Loss_G {G_losses[-1].item():.4f} D(x) {D_x_hist[-1]:.4f} grids {len(img_list_cpu)}")
