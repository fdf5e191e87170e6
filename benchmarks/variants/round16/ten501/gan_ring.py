"""Non-saturating GAN on a ring of eight 2-D Gaussians, with a replay pool of fakes."""
import math
import random

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)

LATENT, BS, EPOCHS, STEPS = 8, 64, 3, 10


def ring_batch(n, modes=8, radius=2.0, spread=0.05):
    theta = torch.randint(0, modes, (n,)).float() * (2 * math.pi / modes)
    return radius * torch.stack([theta.cos(), theta.sin()], 1) + spread * torch.randn(n, 2)


class ReplayPool:
    """Mixes freshly generated samples with older ones for the discriminator."""

    def __init__(self, capacity):
        self.capacity = capacity
        self.items = []

    def draw(self, fresh):
        mixed = []
        for sample in fresh.detach():
            sample = sample[None]
            if len(self.items) < self.capacity:
                self.items.append(sample)
                mixed.append(sample)
            elif random.random() < 0.5:
                j = random.randrange(self.capacity)
                mixed.append(self.items[j].clone())
                self.items[j] = sample
            else:
                mixed.append(sample)
        return torch.cat(mixed)


gen = nn.Sequential(nn.Linear(LATENT, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))
disc = nn.Sequential(nn.Linear(2, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
bce = nn.BCEWithLogitsLoss()
opt_g = torch.optim.Adam(gen.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(disc.parameters(), lr=2e-3, betas=(0.5, 0.999))
pool = ReplayPool(128)
z_fixed = torch.randn(256, LATENT)

gen_curve, disc_curve, snapshots = [], [], []
global_step = 0
for epoch in range(EPOCHS):
    for it in range(STEPS):
        ones, zeros = torch.ones(BS, 1), torch.zeros(BS, 1)

        opt_d.zero_grad()
        real_logit = disc(ring_batch(BS))
        d_real = bce(real_logit, ones)
        d_real.backward()
        p_real = torch.sigmoid(real_logit).mean().item()  # ok

        fakes = gen(torch.randn(BS, LATENT))
        replayed = pool.draw(fakes)  # ok
        d_fake = bce(disc(replayed), zeros)
        d_fake.backward()
        d_total = d_real + d_fake  # ok
        opt_d.step()

        opt_g.zero_grad()
        g_loss = bce(disc(fakes), ones)
        g_loss.backward()
        opt_g.step()

        gen_curve.append(g_loss)  # expect: TEN501
        disc_curve.append(d_total.item())  # ok
        if it % 5 == 0:
            print(f"[{epoch}/{EPOCHS}][{it}/{STEPS}] D {d_total.item():.3f} G {g_loss.item():.3f} D(real) {p_real:.3f}")

        if global_step % 10 == 0:
            with torch.no_grad():
                frame = gen(z_fixed)
            snapshots.append(frame)  # ok
        global_step += 1

print(f"final G loss {gen_curve[-1].item():.3f}, {len(snapshots)} snapshots")
