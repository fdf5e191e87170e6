"""DCGAN training loop (celeba-style), written as a flat script."""
import torch
import torch.nn as nn
import torch.optim as optim
import torchvision.utils as vutils

from models import Discriminator, Generator, weights_init
from data import get_dataloader

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
nz, num_epochs, lr, beta1 = 100, 5, 2e-4, 0.5
dataloader = get_dataloader("data/celeba", image_size=64, batch_size=128)

netG = Generator(nz).to(device)
netG.apply(weights_init)
netD = Discriminator().to(device)
netD.apply(weights_init)

criterion = nn.BCELoss()
fixed_noise = torch.randn(64, nz, 1, 1, device=device)
real_label, fake_label = 1.0, 0.0
optimizerD = optim.Adam(netD.parameters(), lr=lr, betas=(beta1, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=lr, betas=(beta1, 0.999))

img_list = []
G_losses = []
D_losses = []
dx_hist = []
dgz1_hist = []
errD_t = []
dgz_hist = []
iters = 0

print("Starting Training Loop...")
for epoch in range(num_epochs):
    for i, data in enumerate(dataloader, 0):
        # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
        netD.zero_grad()
        real_cpu = data[0].to(device)
        b_size = real_cpu.size(0)
        label = torch.full((b_size,), real_label, dtype=torch.float, device=device)
        output = netD(real_cpu).view(-1)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()

        noise = torch.randn(b_size, nz, 1, 1, device=device)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake.detach()).view(-1)
        errD_fake = criterion(output, label)
        errD_fake.backward()
        D_G_z1 = output.mean().item()
        errD = errD_real + errD_fake
        optimizerD.step()

        # (2) Update G network: maximize log(D(G(z)))
        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake).view(-1)
        errG = criterion(output, label)
        errG.backward()
        D_G_z2 = output.mean()
        optimizerG.step()

        if i % 50 == 0:
            print(f"[{epoch}/{num_epochs}][{i}/{len(dataloader)}] Loss_D: {errD.item():.4f} "
                  f"Loss_G: {errG.item():.4f} D(x): {D_x:.4f} D(G(z)): {D_G_z1:.4f} / {D_G_z2.item():.4f}")

        G_losses.append(errG)  # expect: TEN501
        D_losses.append(errD.item())  # ok
        dx_hist.append(D_x)  # ok
        dgz1_hist.append(D_G_z1)  # ok
        errD_t.append(errD.detach())  # ok
        dgz_hist.append(D_G_z2)  # expect: TEN501

        if (iters % 500 == 0) or ((epoch == num_epochs - 1) and (i == len(dataloader) - 1)):
            with torch.no_grad():
                fake_fixed = netG(fixed_noise).detach().cpu()
            img_list.append(vutils.make_grid(fake_fixed, padding=2, normalize=True))  # ok
        iters += 1

torch.save({"G": netG.state_dict(), "D": netD.state_dict(), "G_losses": G_losses}, "dcgan.pt")
