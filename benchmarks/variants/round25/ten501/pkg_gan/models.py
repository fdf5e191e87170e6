import torch.nn as nn


def generator(z=3, out=2):
    return nn.Sequential(nn.Linear(z, 16), nn.ReLU(), nn.Linear(16, out))


def discriminator(inp=2):
    return nn.Sequential(nn.Linear(inp, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
