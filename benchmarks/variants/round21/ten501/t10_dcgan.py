"""DCGAN-tutorial training loop (tiny MLP G/D on 2-D data) with a CycleGAN-style image pool."""
import random

import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)

nz = 4


class ImagePool:
    """History of generated samples (CycleGAN): returns a mix of current and past fakes."""

    def __init__(self, pool_size):
        self.pool_size = pool_size
        self.num_imgs = 0
        self.images = []

    def query(self, images):
        return_images = []
        for image in images:
            image = torch.unsqueeze(image.data, 0)
            if self.num_imgs < self.pool_size:
                self.num_imgs = self.num_imgs + 1
                self.images.append(image)  # ok
                return_images.append(image)
            elif random.uniform(0, 1) > 0.5:
                random_id = random.randint(0, self.pool_size - 1)
                tmp = self.images[random_id].clone()
                self.images[random_id] = image  # ok
                return_images.append(tmp)
            else:
                return_images.append(image)
        return torch.cat(return_images, 0)


netG = nn.Sequential(nn.Linear(nz, 32), nn.ReLU(), nn.Linear(32, 2))
netD = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1), nn.Sigmoid())
criterion = nn.BCELoss()
fixed_noise = torch.randn(16, nz)
real_label, fake_label = 1.0, 0.0
optimizerD = optim.Adam(netD.parameters(), lr=2e-3, betas=(0.5, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=2e-3, betas=(0.5, 0.999))
fake_pool = ImagePool(32)


def real_batch(n):
    theta = torch.rand(n) * 6.2832
    return torch.stack([torch.cos(theta), torch.sin(theta)], 1) + 0.05 * torch.randn(n, 2)


img_list, samples_during_training = [], []
G_losses, D_losses = [], []
D_losses_tensor, D_G_z_hist = [], []
iters = 0
num_epochs, iters_per_epoch, b_size = 3, 10, 32

print("Starting Training Loop...")
for epoch in range(num_epochs):
    for i in range(iters_per_epoch):
        # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
        netD.zero_grad()
        real = real_batch(b_size)
        label = torch.full((b_size,), real_label)
        output = netD(real).view(-1)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()  # ok

        noise = torch.randn(b_size, nz)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake_pool.query(fake)).view(-1)
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
        D_G_z2 = output.mean().item()
        optimizerG.step()

        G_losses.append(errG.item())  # ok
        D_losses.append(errD.item())  # ok
        D_losses_tensor.append(errD)  # expect: TEN501
        D_G_z_hist.append(output.mean())  # expect: TEN501

        if (iters % 5 == 0) or ((epoch == num_epochs - 1) and (i == iters_per_epoch - 1)):
            with torch.no_grad():
                fake_fixed = netG(fixed_noise).detach().cpu()
            img_list.append(fake_fixed)  # ok
            samples_during_training.append(netG(fixed_noise))  # expect: TEN501
        iters += 1
    print(f"[{epoch}/{num_epochs}] Loss_D: {errD.item():.4f} Loss_G: {errG.item():.4f} "
          f"D(x): {D_x:.4f} D(G(z)): {D_G_z1:.4f} / {D_G_z2:.4f}")

print("snapshots:", len(img_list), "radius of last snapshot:", img_list[-1].norm(dim=1).mean().item())
print("radius drift:", (samples_during_training[-1].norm(dim=1) - samples_during_training[0].norm(dim=1)).mean().item())
print("mean D loss:", torch.stack(D_losses_tensor).mean().item(), sum(D_losses) / len(D_losses),
      "mean D(G(z)):", torch.stack(D_G_z_hist).mean().item())
