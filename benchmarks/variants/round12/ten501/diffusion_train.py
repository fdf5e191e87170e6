import copy

import torch
import torch.nn.functional as F


class DDPMTrainer:
    def __init__(self, model, timesteps=1000, ema_decay=0.999, num_buckets=10, lr=2e-4):
        self.model = model
        self.ema_model = copy.deepcopy(model).requires_grad_(False)
        self.T = timesteps
        betas = torch.linspace(1e-4, 0.02, timesteps)
        self.alphas = 1.0 - betas
        self.alphas_cumprod = torch.cumprod(self.alphas, 0)
        self.betas = betas
        self.ema_decay = ema_decay
        self.num_buckets = num_buckets
        self.loss_by_t = {b: [] for b in range(num_buckets)}
        self.loss_by_t_f = {b: [] for b in range(num_buckets)}
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)

    def q_sample(self, x0, t, noise):
        ac = self.alphas_cumprod[t].view(-1, 1, 1, 1)
        return ac.sqrt() * x0 + (1 - ac).sqrt() * noise

    def training_step(self, x0):
        b = x0.shape[0]
        t = torch.randint(0, self.T, (b,), device=x0.device)
        noise = torch.randn_like(x0)
        xt = self.q_sample(x0, t, noise)
        pred = self.model(xt, t)
        per_sample = F.mse_loss(pred, noise, reduction="none").mean(dim=(1, 2, 3))
        loss = per_sample.mean()
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        self.update_ema()

        buckets = (t * self.num_buckets // self.T).tolist()
        for bucket, l in zip(buckets, per_sample):
            self.loss_by_t[bucket].append(l)  # expect: TEN501
        for bucket, l in zip(buckets, per_sample.detach().tolist()):
            self.loss_by_t_f[bucket].append(l)  # ok
        return loss.item()

    @torch.no_grad()
    def update_ema(self):
        for ema_p, p in zip(self.ema_model.parameters(), self.model.parameters()):
            ema_p.mul_(self.ema_decay).add_(p, alpha=1 - self.ema_decay)  # ok

    @torch.no_grad()
    def sample(self, shape, keep_every=100):
        x = torch.randn(shape)
        trajectory = []
        for i in reversed(range(self.T)):
            t = torch.full((shape[0],), i, dtype=torch.long)
            eps = self.ema_model(x, t)
            alpha, ac, beta = self.alphas[i], self.alphas_cumprod[i], self.betas[i]
            x = (x - beta / (1 - ac).sqrt() * eps) / alpha.sqrt()
            if i > 0:
                x = x + beta.sqrt() * torch.randn_like(x)
            if i % keep_every == 0:
                trajectory.append(x)  # ok
        return x, trajectory

    def fit(self, loader, epochs):
        curve = []
        for epoch in range(epochs):
            for x0, _ in loader:
                curve.append(self.training_step(x0))  # ok
        return curve
