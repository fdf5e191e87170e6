"""CycleGAN-style history pool of generated samples for the discriminator."""
import random
import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)


class ImagePool:
    def __init__(self, pool_size, keep_data_only):
        self.pool_size = pool_size
        self.keep_data_only = keep_data_only
        self.images = []

    def query(self, images):
        out = []
        for image in images:
            image = image.unsqueeze(0)
            stored = image.data if self.keep_data_only else image
            if len(self.images) < self.pool_size:
                self.images.append(stored)
                out.append(image)
            elif random.random() > 0.5:
                j = random.randint(0, self.pool_size - 1)
                old = self.images[j].clone()
                self.images[j] = stored
                out.append(old)
            else:
                out.append(image)
        return torch.cat(out, 0)


G = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 4))
D = nn.Sequential(nn.Linear(4, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
optG = torch.optim.Adam(G.parameters(), lr=1e-3)
optD = torch.optim.Adam(D.parameters(), lr=1e-3)
pool_buggy = ImagePool(10, keep_data_only=False)
pool = ImagePool(10, keep_data_only=True)
bce = nn.BCEWithLogitsLoss()
for it in range(8):
    real = torch.randn(4, 4) + 1
    fake = G(torch.randn(4, 4))
    g_loss = bce(D(fake), torch.ones(4, 1))
    optG.zero_grad()
    g_loss.backward()
    optG.step()
    pool_buggy.query(fake)  # expect: TEN501
    fake_hist = pool.query(fake)  # ok
    d_loss = bce(D(real), torch.ones(4, 1)) + bce(D(fake_hist.detach()), torch.zeros(4, 1))
    optD.zero_grad()
    d_loss.backward()
    optD.step()
print("g", round(g_loss.item(), 4), "d", round(d_loss.item(), 4), len(pool.images))
