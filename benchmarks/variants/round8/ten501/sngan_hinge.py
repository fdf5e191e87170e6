import os

import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
import torchvision.utils as vutils
from torch.nn.utils import spectral_norm

NZ = 128


class Generator(nn.Module):
    def __init__(self, nz=NZ, ngf=256):
        super().__init__()
        self.fc = nn.Linear(nz, 4 * 4 * ngf)
        self.net = nn.Sequential(
            nn.BatchNorm2d(ngf), nn.ReLU(True),
            nn.ConvTranspose2d(ngf, ngf // 2, 4, 2, 1), nn.BatchNorm2d(ngf // 2), nn.ReLU(True),
            nn.ConvTranspose2d(ngf // 2, ngf // 4, 4, 2, 1), nn.BatchNorm2d(ngf // 4), nn.ReLU(True),
            nn.ConvTranspose2d(ngf // 4, ngf // 8, 4, 2, 1), nn.BatchNorm2d(ngf // 8), nn.ReLU(True),
            nn.Conv2d(ngf // 8, 3, 3, 1, 1), nn.Tanh(),
        )
        self.ngf = ngf

    def forward(self, z):
        return self.net(self.fc(z).view(-1, self.ngf, 4, 4))


class Discriminator(nn.Module):
    def __init__(self, ndf=64):
        super().__init__()
        sn = spectral_norm
        self.net = nn.Sequential(
            sn(nn.Conv2d(3, ndf, 3, 1, 1)), nn.LeakyReLU(0.1),
            sn(nn.Conv2d(ndf, ndf * 2, 4, 2, 1)), nn.LeakyReLU(0.1),
            sn(nn.Conv2d(ndf * 2, ndf * 4, 4, 2, 1)), nn.LeakyReLU(0.1),
            sn(nn.Conv2d(ndf * 4, ndf * 8, 4, 2, 1)), nn.LeakyReLU(0.1),
        )
        self.fc = sn(nn.Linear(4 * 4 * ndf * 8, 1))

    def forward(self, x):
        return self.fc(self.net(x).flatten(1))


def train_step(netD, netG, optD, optG, real, n_critic, device):
    bs = real.size(0)
    for _ in range(n_critic):
        z = torch.randn(bs, NZ, device=device)
        with torch.no_grad():
            fake = netG(z)
        d_real_loss = F.relu(1.0 - netD(real)).mean()
        d_fake_loss = F.relu(1.0 + netD(fake)).mean()
        d_loss = d_real_loss + d_fake_loss  # ok
        optD.zero_grad(set_to_none=True)
        d_loss.backward()
        optD.step()

    z = torch.randn(bs, NZ, device=device)
    g_loss = -netD(netG(z)).mean()
    optG.zero_grad(set_to_none=True)
    g_loss.backward()
    optG.step()
    return d_loss, g_loss


def main(epochs=100, batch_size=64, n_critic=5, out_dir="samples"):
    device = torch.device("cuda")
    tf = torchvision.transforms.Compose([
        torchvision.transforms.ToTensor(),
        torchvision.transforms.Normalize((0.5,) * 3, (0.5,) * 3),
    ])
    ds = torchvision.datasets.CIFAR10("data", train=True, download=True, transform=tf)
    loader = torch.utils.data.DataLoader(ds, batch_size=batch_size, shuffle=True, num_workers=4, drop_last=True)

    netG, netD = Generator().to(device), Discriminator().to(device)
    optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.0, 0.9))
    optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.0, 0.9))
    fixed_z = torch.randn(64, NZ, device=device)

    history = {"d": [], "g": []}
    grids = []
    os.makedirs(out_dir, exist_ok=True)
    for epoch in range(epochs):
        for i, (real, _) in enumerate(loader):
            real = real.to(device, non_blocking=True)
            d_loss, g_loss = train_step(netD, netG, optD, optG, real, n_critic, device)
            history["d"].append(d_loss.item())  # ok
            history["g"].append(g_loss)  # expect: TEN501

            if i % 200 == 0:
                print(f"[{epoch}/{epochs}][{i}/{len(loader)}] loss_D {history['d'][-1]:.4f} loss_G {g_loss:.4f}")
                netG.eval()
                with torch.no_grad():
                    samples = netG(fixed_z).cpu()
                netG.train()
                grids.append(vutils.make_grid(samples, nrow=8, normalize=True))  # ok
        vutils.save_image(grids[-1], os.path.join(out_dir, f"epoch_{epoch:03d}.png"))

    plt.figure(figsize=(10, 5))
    plt.plot(history["d"], label="D")
    plt.plot([g.item() for g in history["g"]], label="G")
    plt.xlabel("iterations")
    plt.legend()
    plt.savefig(os.path.join(out_dir, "losses.png"))
    torch.save({"G": netG.state_dict(), "D": netD.state_dict()}, "sngan_cifar.pt")


if __name__ == "__main__":
    main()
