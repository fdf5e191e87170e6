"""DCGAN-tutorial style training loop (tiny MLP generator/discriminator)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
nz = 8


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(nz, 32), nn.ReLU(True), nn.Linear(32, 16), nn.Tanh())

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2, inplace=True), nn.Linear(32, 1), nn.Sigmoid())

    def forward(self, x):
        return self.main(x).view(-1)


netG, netD = Generator(), Discriminator()
criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
fixed_noise = torch.randn(4, nz)
real_label, fake_label = 1.0, 0.0

img_list = []
G_losses = []
D_losses = []
D_x_hist = []
previews = []
dataloader = [torch.randn(8, 16).clamp(-1, 1) for _ in range(4)]

for epoch in range(2):
    for i, real in enumerate(dataloader):
        b_size = real.size(0)
        netD.zero_grad()
        label = torch.full((b_size,), real_label)
        output = netD(real)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()
        noise = torch.randn(b_size, nz)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake.detach())
        errD_fake = criterion(output, label)
        errD_fake.backward()
        errD = errD_real + errD_fake
        optimizerD.step()

        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake)
        errG = criterion(output, label)
        errG.backward()
        optimizerG.step()

        G_losses.append(errG)  # expect: TEN501
        D_losses.append(errD.item())  # ok
        D_x_hist.append(D_x)  # ok
        previews.append(fake[:2])  # expect: TEN501
        if i % 2 == 0:
            with torch.no_grad():
                img_list.append(netG(fixed_noise))  # ok

print(len(G_losses), D_losses[-1], len(img_list), len(previews))
