# 1-D GAN with a watchdog that rolls both players back when the discriminator wins too hard.
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def real_batch(n):
    comp = torch.randint(0, 2, (n, 1)).float()
    return comp * (2.0 + 0.3 * torch.randn(n, 1)) + (1 - comp) * (-1.0 + 0.5 * torch.randn(n, 1))


class Watchdog:
    def __init__(self, G, D, opt_g, opt_d, every=40, d_loss_floor=0.6):
        self.G, self.D, self.opt_g, self.opt_d = G, D, opt_g, opt_d
        self.every = every
        self.floor = d_loss_floor
        self.rollbacks = 0
        self.save()

    def save(self):
        self.g_backup = self.G.state_dict()  # expect: TEN402
        self.og_backup = self.opt_g.state_dict()  # expect: TEN402
        self.d_backup = copy.deepcopy(self.D.state_dict())  # ok
        self.od_backup = copy.deepcopy(self.opt_d.state_dict())  # ok

    def rollback(self):
        self.G.load_state_dict(self.g_backup)
        self.opt_g.load_state_dict(self.og_backup)
        self.D.load_state_dict(self.d_backup)
        self.opt_d.load_state_dict(copy.deepcopy(self.od_backup))
        self.rollbacks += 1

    def __call__(self, step, d_loss):
        if d_loss < self.floor:
            self.rollback()
            return True
        if step % self.every == 0:
            self.save()
        return False


def main():
    G = nn.Sequential(nn.Linear(4, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
    D = nn.Sequential(nn.Linear(1, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=4e-3, betas=(0.5, 0.999))
    bce = nn.BCEWithLogitsLoss()
    dog = Watchdog(G, D, opt_g, opt_d)
    w_at_save = G[0].weight.detach().clone()  # ok
    for step in range(1, 301):
        real = real_batch(64)
        fake = G(torch.randn(64, 4))
        d_loss = bce(D(real), torch.ones(64, 1)) + bce(D(fake.detach()), torch.zeros(64, 1))
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
        g_loss = bce(D(fake), torch.ones(64, 1))
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        if dog(step, d_loss.item() / 2):
            moved = (G[0].weight.detach() - w_at_save).norm().item()
            print(f"step {step}: rollback #{dog.rollbacks}, G distance from its last save {moved:.4f}")
        if step % dog.every == 0:
            w_at_save = G[0].weight.detach().clone()  # ok
    with torch.no_grad():
        sample = G(torch.randn(2000, 4))
    print("generated mean %.3f std %.3f, rollbacks %d" % (sample.mean(), sample.std(), dog.rollbacks))


if __name__ == "__main__":
    main()
