import torch
import torch.nn.functional as F

from .callbacks import CallbackList, LossHistory, RunningAverages, SampleSaver
from .models import discriminator, generator


class GANTrainer:
    def __init__(self, nz=4):
        self.nz = nz
        self.G, self.D = generator(nz), discriminator()
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=2e-4)
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=2e-4)
        self.fixed_z = torch.randn(2, nz)
        self.callbacks = CallbackList([LossHistory(), RunningAverages()])
        self.callbacks_ok = CallbackList([LossHistory(), RunningAverages(), SampleSaver()])
        self.state = {"fake_scores": torch.empty(0), "d_fake_scores": torch.empty(0), "fake_scores_ok": torch.empty(0)}
        self.step = 0

    def train_step(self, real):
        z = torch.randn(real.size(0), self.nz)
        fake = self.G(z)
        d_real, d_fake = self.D(real), self.D(fake.detach())
        d_loss = F.softplus(-d_real).mean() + F.softplus(d_fake).mean()
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()
        g_score = self.D(fake)
        g_loss = F.softplus(-g_score).mean()
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        self.state["fake_scores"] = torch.cat([self.state["fake_scores"], g_score.mean().view(1)])  # expect: TEN501
        self.state["d_fake_scores"] = torch.cat([self.state["d_fake_scores"], d_fake.mean().view(1)])  # expect: TEN501
        self.state["fake_scores_ok"] = torch.cat([self.state["fake_scores_ok"], g_score.detach().mean().view(1)])  # ok
        return d_loss, g_loss

    def fit(self, data, epochs):
        for epoch in range(epochs):
            for real in data:
                d_loss, g_loss = self.train_step(real)
                self.step += 1
                self.callbacks.on_step_end(self, {"d_loss": d_loss, "g_loss": g_loss})  # expect: TEN501
                self.callbacks_ok.on_step_end(self, {"d_loss": d_loss.item(), "g_loss": g_loss.item()})  # ok
