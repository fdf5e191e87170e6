import torch
from torch import nn
from collections import defaultdict


def make_gen(z=100):
    return nn.Sequential(
        nn.ConvTranspose2d(z, 128, 7, 1, 0), nn.BatchNorm2d(128), nn.ReLU(True),
        nn.ConvTranspose2d(128, 64, 4, 2, 1), nn.BatchNorm2d(64), nn.ReLU(True),
        nn.ConvTranspose2d(64, 1, 4, 2, 1), nn.Tanh(),
    )


def make_disc():
    return nn.Sequential(
        nn.Conv2d(1, 64, 4, 2, 1), nn.LeakyReLU(0.2, True),
        nn.Conv2d(64, 128, 4, 2, 1), nn.BatchNorm2d(128), nn.LeakyReLU(0.2, True),
        nn.Flatten(), nn.Linear(128 * 7 * 7, 1),
    )


def train_gan(loader, epochs=5, z_dim=100):
    G, D = make_gen(z_dim), make_disc()
    opt_g = torch.optim.Adam(G.parameters(), 2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), 2e-4, betas=(0.5, 0.999))
    bce = nn.BCEWithLogitsLoss()
    hist = defaultdict(float)
    d_x_scores = []
    for epoch in range(epochs):
        for real, _ in loader:
            b = real.size(0)
            ones, zeros = torch.ones(b, 1), torch.zeros(b, 1)

            # --- discriminator ---
            noise = torch.randn(b, z_dim, 1, 1)
            fake = G(noise)
            real_logits = D(real)
            d_real = bce(real_logits, ones)
            d_fake = bce(D(fake.detach()), zeros)
            d_loss = d_real + d_fake
            opt_d.zero_grad()
            d_loss.backward()
            opt_d.step()

            # --- generator ---
            g_loss = bce(D(fake), ones)
            opt_g.zero_grad()
            g_loss.backward()
            opt_g.step()

            hist["d_real"] += d_real  # expect: TEN501
            hist["d_fake"] += d_fake.item()  # ok
            hist["g"] += g_loss.item()  # ok
            hist["steps"] += 1  # ok
            d_x_scores.append(torch.sigmoid(real_logits).mean().detach())  # ok
        n = hist["steps"]
        print(epoch, {k: float(v) / n for k, v in hist.items() if k != "steps"})
    return G, D, hist
