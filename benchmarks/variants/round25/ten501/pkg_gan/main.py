import random

import torch

from .models import discriminator, generator
from .pool import ImagePool, Stats
from .train import gan_step


def main():
    torch.manual_seed(0)
    random.seed(0)
    G, D = generator(), discriminator()
    opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.9))
    opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.9))
    pool, pool_ok = ImagePool(size=40), ImagePool(size=40)
    stats, stats_ok = Stats(), Stats()
    for it in range(10):
        real = torch.randn(16, 2) + torch.tensor([1.5, 0.5])
        d, g = gan_step(G, D, opt_g, opt_d, real, pool, pool_ok, stats, stats_ok)
        if it % 3 == 0:
            print(it, round(d, 4), round(g, 4))
    print("pool", len(pool.items), "mean d", round(sum(stats_ok.series["d_loss"]) / 10, 4))


if __name__ == "__main__":
    main()
