import os
import random

import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.optim as optim
import torchvision.datasets as dset
import torchvision.transforms as transforms
import torchvision.utils as vutils

dataroot, workers, batch_size, image_size = "data/celeba", 2, 128, 64
nc, nz, ngf, ndf = 3, 100, 64, 64
num_epochs, lr, beta1 = 5, 0.0002, 0.5
manualSeed = 999
random.seed(manualSeed)
torch.manual_seed(manualSeed)
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif classname.find("BatchNorm") != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)


def block(cin, cout, transpose, k=4, s=2, p=1, bn=True, act=None):
    conv = nn.ConvTranspose2d if transpose else nn.Conv2d
    layers = [conv(cin, cout, k, s, p, bias=False)]
    if bn:
        layers.append(nn.BatchNorm2d(cout))
    layers.append(act if act is not None else (nn.ReLU(True) if transpose else nn.LeakyReLU(0.2, inplace=True)))
    return layers


netG = nn.Sequential(
    *block(nz, ngf * 8, True, s=1, p=0), *block(ngf * 8, ngf * 4, True),
    *block(ngf * 4, ngf * 2, True), *block(ngf * 2, ngf, True),
    *block(ngf, nc, True, bn=False, act=nn.Tanh()),
).to(device)
netD = nn.Sequential(
    *block(nc, ndf, False, bn=False), *block(ndf, ndf * 2, False),
    *block(ndf * 2, ndf * 4, False), *block(ndf * 4, ndf * 8, False),
    *block(ndf * 8, 1, False, s=1, p=0, bn=False, act=nn.Sigmoid()),
).to(device)
netG.apply(weights_init)
netD.apply(weights_init)

dataset = dset.ImageFolder(root=dataroot, transform=transforms.Compose([
    transforms.Resize(image_size), transforms.CenterCrop(image_size), transforms.ToTensor(),
    transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))]))
dataloader = torch.utils.data.DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers=workers)

criterion = nn.BCELoss()
fixed_noise = torch.randn(64, nz, 1, 1, device=device)
real_label, fake_label = 1.0, 0.0
optimizerD = optim.Adam(netD.parameters(), lr=lr, betas=(beta1, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=lr, betas=(beta1, 0.999))

img_list, G_losses, D_losses = [], [], []
iters = 0
print("Starting Training Loop...")
for epoch in range(num_epochs):
    for i, data in enumerate(dataloader, 0):
        # (1) Update D: maximize log(D(x)) + log(1 - D(G(z)))
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
        errD = errD_real + errD_fake
        optimizerD.step()

        # (2) Update G: maximize log(D(G(z)))
        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake).view(-1)
        errG = criterion(output, label)
        errG.backward()
        optimizerG.step()

        if i % 50 == 0:
            print(f"[{epoch}/{num_epochs}][{i}/{len(dataloader)}]\tLoss_D: {errD.item():.4f}"
                  f"\tLoss_G: {errG.item():.4f}\tD(x): {D_x:.4f}")

        G_losses.append(errG)  # expect: TEN501
        D_losses.append(errD.item())

        if (iters % 500 == 0) or ((epoch == num_epochs - 1) and (i == len(dataloader) - 1)):
            with torch.no_grad():
                fake = netG(fixed_noise).detach().cpu()
            img_list.append(vutils.make_grid(fake, padding=2, normalize=True))
        iters += 1

os.makedirs("out", exist_ok=True)
plt.figure(figsize=(10, 5))
plt.plot([g.item() for g in G_losses], label="G")
plt.plot(D_losses, label="D")
plt.legend()
plt.savefig("out/losses.png")
