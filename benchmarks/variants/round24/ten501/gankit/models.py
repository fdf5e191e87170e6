import torch.nn as nn


def generator(nz=4, d=6):
    return nn.Sequential(nn.Linear(nz, 16), nn.ReLU(), nn.Linear(16, d))


def discriminator(d=6):
    return nn.Sequential(nn.Linear(d, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
