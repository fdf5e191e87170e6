"""1-D toy GAN that keeps the generator with the best distribution match."""
import copy

import torch
from torch import nn


def real_batch(n):
    return torch.randn(n, 1) * 0.5 + 2.0


def moment_gap(fake):
    return (fake.mean() - 2.0).abs().item() + (fake.std() - 0.5).abs().item()


def train_gan(keep="list", steps=60):
    torch.manual_seed(0)
    G = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
    D = nn.Sequential(nn.Linear(1, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
    G_ema = copy.deepcopy(G)  # ok
    og = torch.optim.Adam(G.parameters(), lr=5e-3, betas=(0.5, 0.9))
    od = torch.optim.Adam(D.parameters(), lr=5e-3, betas=(0.5, 0.9))
    bce = nn.BCEWithLogitsLoss()
    z_eval = torch.randn(512, 2)
    best_gap, g_best, d_best = float("inf"), None, None
    for step in range(steps):
        real, z = real_batch(64), torch.randn(64, 2)
        fake = G(z)
        d_loss = bce(D(real), torch.ones(64, 1)) + bce(D(fake.detach()), torch.zeros(64, 1))  # ok
        od.zero_grad()
        d_loss.backward()
        od.step()
        g_loss = bce(D(fake), torch.ones(64, 1))
        og.zero_grad()
        g_loss.backward()
        og.step()
        with torch.no_grad():
            for pe, p in zip(G_ema.parameters(), G.parameters()):
                pe.lerp_(p, 0.1)
            gap = moment_gap(G(z_eval))
        if gap < best_gap:
            best_gap = gap
            if keep == "list":
                g_best = [p for p in G.parameters()]  # expect: TEN402
            else:
                g_best = [p.detach().clone() for p in G.parameters()]  # ok
            d_best = copy.deepcopy(D.state_dict())  # ok
    with torch.no_grad():
        for p, q in zip(G.parameters(), g_best):
            p.copy_(q)
        D.load_state_dict(d_best)
        restored = moment_gap(G(z_eval))
        ema_gap = moment_gap(G_ema(z_eval))
    print(f"[{keep}] best gap {best_gap:.4f}, restored generator gap {restored:.4f}, ema gap {ema_gap:.4f}")


if __name__ == "__main__":
    train_gan("list")
    train_gan("clone")
