"""DCGAN-style alternating updates on toy 2-D data."""
import torch
import torch.nn as nn
import torch.optim as optim

nz = 4


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(nz, 16), nn.ReLU(True), nn.Linear(16, 2))

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2, inplace=True), nn.Linear(16, 1), nn.Sigmoid())

    def forward(self, x):
        return self.main(x).view(-1)


def real_batches(n_batches=5, bs=16):
    for _ in range(n_batches):
        yield torch.randn(bs, 2) * 0.5 + torch.tensor([2.0, -1.0])


def train(num_epochs=2):
    netG, netD = Generator(), Discriminator()
    criterion = nn.BCELoss()
    fixed_noise = torch.randn(8, nz)
    optimizerD = optim.Adam(netD.parameters(), lr=2e-3, betas=(0.5, 0.999))
    optimizerG = optim.Adam(netG.parameters(), lr=2e-3, betas=(0.5, 0.999))
    img_list, G_losses, D_losses = [], [], []
    d_real_scores, fake_history = [], []
    iters = 0
    for epoch in range(num_epochs):
        for i, real in enumerate(real_batches()):
            # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
            netD.zero_grad()
            b_size = real.size(0)
            label = torch.full((b_size,), 1.0)
            output = netD(real)
            errD_real = criterion(output, label)
            errD_real.backward()
            D_x = output.mean().item()
            d_real_scores.append(output.mean())  # expect: TEN501
            noise = torch.randn(b_size, nz)
            fake = netG(noise)
            label.fill_(0.0)
            output = netD(fake.detach())
            errD_fake = criterion(output, label)
            errD_fake.backward()
            errD = errD_real + errD_fake
            optimizerD.step()
            # (2) Update G network: maximize log(D(G(z)))
            netG.zero_grad()
            label.fill_(1.0)
            output = netD(fake)
            errG = criterion(output, label)
            errG.backward()
            optimizerG.step()
            fake_history.append(fake)  # expect: TEN501
            G_losses.append(errG.item())  # ok
            D_losses.append(errD.item())  # ok
            if iters % 4 == 0:
                with torch.no_grad():
                    sample = netG(fixed_noise).detach().cpu()
                img_list.append(sample)  # ok
            iters += 1  # ok
        print(f"[{epoch}] Loss_D {errD.item():.3f} Loss_G {errG.item():.3f} D(x) {D_x:.3f}")
    return G_losses, D_losses, img_list, d_real_scores, fake_history


if __name__ == "__main__":
    torch.manual_seed(0)
    out = train()
    print([len(x) for x in out])
