import torch
import torch.nn as nn


class GANTrainer:
    def __init__(self, G, D, callbacks=()):
        self.G, self.D = G, D
        self.callbacks = list(callbacks)
        self.opt_g = torch.optim.Adam(G.parameters(), lr=2e-4)
        self.opt_d = torch.optim.Adam(D.parameters(), lr=2e-4)
        self.bce = nn.BCEWithLogitsLoss()
        self.sample_cache = []
        self.sample_grid = torch.empty(0, 3)
        self.z_fixed = torch.randn(2, 2)

    def _fire(self, hook, logs):
        for cb in self.callbacks:
            getattr(cb, hook)(logs)

    def train_step(self, real):
        n = real.size(0)
        fake = self.G(torch.randn(n, 2))
        self.opt_d.zero_grad()
        d_loss = self.bce(self.D(real), torch.ones(n, 1)) + self.bce(self.D(fake.detach()), torch.zeros(n, 1))
        d_loss.backward()
        self.opt_d.step()
        self.opt_g.zero_grad()
        g_loss = self.bce(self.D(fake), torch.ones(n, 1))
        g_loss.backward()
        self.opt_g.step()
        self.sample_grid = torch.cat([self.sample_grid, fake[:1]])  # expect: TEN501
        return d_loss, g_loss

    def fit(self, data, epochs):
        for epoch in range(epochs):
            for real in data:
                d_loss, g_loss = self.train_step(real)
                self._fire("on_step_end", {"d": d_loss, "g": g_loss})  # expect: TEN501
            self._fire("on_epoch_end", {"d": d_loss.item(), "g": g_loss.item()})  # ok
            with torch.no_grad():
                self.sample_cache.append(self.G(self.z_fixed))  # ok
