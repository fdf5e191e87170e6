import torch.nn as nn


def generator(nz=4):
    return nn.Sequential(nn.Linear(nz, 32), nn.ReLU(), nn.Linear(32, 2))


def discriminator():
    return nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
