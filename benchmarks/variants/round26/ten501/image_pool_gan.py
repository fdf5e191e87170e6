"""CycleGAN-style image pool (history of generated images for the discriminator)."""
import random

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)


class ImagePool:
    def __init__(self, pool_size):
        self.pool_size = pool_size
        self.images = []

    def query(self, images):
        out = []
        for image in images:
            image = image.unsqueeze(0)
            if len(self.images) < self.pool_size:
                self.images.append(image)
                out.append(image)
            elif random.random() > 0.5:
                i = random.randint(0, self.pool_size - 1)
                old = self.images[i].clone()
                self.images[i] = image
                out.append(old)
            else:
                out.append(image)
        return torch.cat(out, 0)


G = nn.Sequential(nn.Linear(3, 12), nn.ReLU(), nn.Linear(12, 3))
D = nn.Sequential(nn.Linear(3, 12), nn.LeakyReLU(0.2), nn.Linear(12, 1))
optG = torch.optim.Adam(G.parameters(), lr=1e-3)
optD = torch.optim.Adam(D.parameters(), lr=1e-3)
mse = nn.MSELoss()
for variant in ("raw", "detached"):
    pool = ImagePool(pool_size=10)
    for it in range(8):
        real = torch.randn(4, 3) + 1.0
        fake = G(torch.randn(4, 3))
        optG.zero_grad()
        loss_G = mse(D(fake), torch.ones(4, 1))
        loss_G.backward()
        optG.step()
        if variant == "raw":
            fake_for_D = pool.query(fake)  # expect: TEN501
            fake_for_D = fake_for_D.detach()
        else:
            fake_for_D = pool.query(fake.detach())  # ok
        optD.zero_grad()
        loss_D = 0.5 * (mse(D(real), torch.ones(4, 1)) + mse(D(fake_for_D), torch.zeros(4, 1)))
        loss_D.backward()
        optD.step()
    print(variant, round(loss_G.item(), 4), round(loss_D.item(), 4), len(pool.images))
