"""CycleGAN training with an image history pool (the pool stores detached images)."""
import itertools
import random

import torch
import torch.nn as nn


class ImagePool:
    def __init__(self, pool_size=50):
        self.pool_size = pool_size
        self.num_imgs = 0
        self.images = []

    def query(self, images):
        if self.pool_size == 0:
            return images
        return_images = []
        for image in images:
            image = torch.unsqueeze(image.data, 0)
            if self.num_imgs < self.pool_size:
                self.num_imgs += 1
                self.images.append(image)
                return_images.append(image)
            elif random.uniform(0, 1) > 0.5:
                random_id = random.randint(0, self.pool_size - 1)
                tmp = self.images[random_id].clone()
                self.images[random_id] = image
                return_images.append(tmp)
            else:
                return_images.append(image)
        return torch.cat(return_images, 0)


def backward_D_basic(netD, real, fake, criterion):
    loss_real = criterion(netD(real), torch.ones_like(netD(real)))
    loss_fake = criterion(netD(fake.detach()), torch.zeros_like(netD(fake.detach())))
    loss_D = (loss_real + loss_fake) * 0.5
    loss_D.backward()
    return loss_D


def train(netG_A, netG_B, netD_A, netD_B, loader, epochs=200, lambda_cyc=10.0):
    gan_crit, cyc_crit = nn.MSELoss(), nn.L1Loss()
    opt_G = torch.optim.Adam(itertools.chain(netG_A.parameters(), netG_B.parameters()), lr=2e-4, betas=(0.5, 0.999))
    opt_D = torch.optim.Adam(itertools.chain(netD_A.parameters(), netD_B.parameters()), lr=2e-4, betas=(0.5, 0.999))
    fake_A_pool, fake_B_pool = ImagePool(50), ImagePool(50)
    losses = {"G": [], "D_A": [], "D_B": []}
    for epoch in range(epochs):
        for real_A, real_B in loader:
            fake_B = netG_A(real_A)
            fake_A = netG_B(real_B)
            opt_G.zero_grad()
            pred_fB, pred_fA = netD_A(fake_B), netD_B(fake_A)
            loss_G = (gan_crit(pred_fB, torch.ones_like(pred_fB)) + gan_crit(pred_fA, torch.ones_like(pred_fA))
                      + lambda_cyc * cyc_crit(netG_B(fake_B), real_A) + lambda_cyc * cyc_crit(netG_A(fake_A), real_B))
            loss_G.backward()
            opt_G.step()

            opt_D.zero_grad()
            fake_B_pooled = fake_B_pool.query(fake_B)  # ok
            loss_D_A = backward_D_basic(netD_A, real_B, fake_B_pooled, gan_crit)
            fake_A_pooled = fake_A_pool.query(fake_A)  # ok
            loss_D_B = backward_D_basic(netD_B, real_A, fake_A_pooled, gan_crit)
            opt_D.step()

            losses["G"].append(loss_G.item())  # ok
            losses["D_A"].append(loss_D_A.item())  # ok
            losses["D_B"].append(float(loss_D_B))  # ok
    return losses
