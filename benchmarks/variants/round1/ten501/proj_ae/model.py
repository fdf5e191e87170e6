import torch.nn as nn


class AutoEncoder(nn.Module):
    def __init__(self, d=32, z=6):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, z))
        self.decoder = nn.Sequential(nn.Linear(z, 16), nn.ReLU(), nn.Linear(16, d))

    def forward(self, x):
        return self.decoder(self.encoder(x))
