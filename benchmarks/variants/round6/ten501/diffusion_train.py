"""Minimal DDPM training script (epsilon prediction) with an EMA copy of the
denoiser, a loss-aware timestep sampler and periodic sampling."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def linear_beta_schedule(timesteps, start=1e-4, end=0.02):
    return torch.linspace(start, end, timesteps)


class SinusoidalPosEmb(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(-math.log(10000) * torch.arange(half) / (half - 1))
        args = t.float()[:, None] * freqs[None]
        return torch.cat((args.sin(), args.cos()), dim=-1)


class Denoiser(nn.Module):
    def __init__(self, channels=1, dim=16):
        super().__init__()
        self.time_mlp = nn.Sequential(SinusoidalPosEmb(dim), nn.Linear(dim, dim), nn.GELU())
        self.inp = nn.Conv2d(channels, dim, 3, padding=1)
        self.mid = nn.Conv2d(dim, dim, 3, padding=1)
        self.out = nn.Conv2d(dim, channels, 3, padding=1)

    def forward(self, x, t):
        h = F.silu(self.inp(x))
        h = h + self.time_mlp(t)[:, :, None, None]
        h = F.silu(self.mid(h))
        return self.out(h)


class GaussianDiffusion:
    def __init__(self, timesteps=50):
        self.timesteps = timesteps
        betas = linear_beta_schedule(timesteps)
        alphas = 1.0 - betas
        self.betas = betas
        self.alphas_cumprod = torch.cumprod(alphas, dim=0)
        self.sqrt_alphas_cumprod = self.alphas_cumprod.sqrt()
        self.sqrt_one_minus_alphas_cumprod = (1.0 - self.alphas_cumprod).sqrt()
        self.sqrt_recip_alphas = (1.0 / alphas).sqrt()

    def q_sample(self, x_start, t, noise):
        a = self.sqrt_alphas_cumprod[t].view(-1, 1, 1, 1)
        b = self.sqrt_one_minus_alphas_cumprod[t].view(-1, 1, 1, 1)
        return a * x_start + b * noise

    def p_losses(self, model, x_start, t):
        noise = torch.randn_like(x_start)
        x_noisy = self.q_sample(x_start, t, noise)
        predicted = model(x_noisy, t)
        per_sample = F.mse_loss(predicted, noise, reduction="none").mean(dim=(1, 2, 3))
        return per_sample

    @torch.no_grad()
    def sample(self, model, shape, keep_every=10):
        img = torch.randn(shape)
        frames = []
        for i in reversed(range(self.timesteps)):
            t = torch.full((shape[0],), i, dtype=torch.long)
            eps = model(img, t)
            coef = self.betas[i] / self.sqrt_one_minus_alphas_cumprod[i]
            img = self.sqrt_recip_alphas[i] * (img - coef * eps)
            if i > 0:
                img = img + self.betas[i].sqrt() * torch.randn_like(img)
            if i % keep_every == 0:
                frames.append(img)  # ok
        return img, frames


class LossAwareSampler:
    def __init__(self, timesteps, history=4):
        self.timesteps = timesteps
        self.history = history
        self._loss_history = torch.zeros(timesteps, history)
        self._loss_counts = torch.zeros(timesteps, dtype=torch.long)

    def weights(self):
        if (self._loss_counts < self.history).any():
            return torch.ones(self.timesteps) / self.timesteps
        w = self._loss_history.pow(2).mean(-1).sqrt()
        return w / w.sum()

    def sample(self, batch_size):
        return torch.multinomial(self.weights(), batch_size, replacement=True)

    def update_with_local_losses(self, ts, losses):
        for t, loss in zip(ts, losses):
            if self._loss_counts[t] == self.history:
                self._loss_history[t, :-1] = self._loss_history[t, 1:].clone()
                self._loss_history[t, -1] = loss
            else:
                self._loss_history[t, self._loss_counts[t]] = loss
                self._loss_counts[t] += 1


class EMA:
    def __init__(self, model, beta=0.995):
        self.beta = beta
        self.ema_model = copy.deepcopy(model).eval().requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for ema_p, p in zip(self.ema_model.parameters(), model.parameters()):
            ema_p.lerp_(p, 1 - self.beta)


def main(epochs=3, steps_per_epoch=8, batch_size=8):
    torch.manual_seed(0)
    data = torch.randn(64, 1, 8, 8).tanh()
    diffusion = GaussianDiffusion(timesteps=50)
    model = Denoiser()
    ema = EMA(model)
    sampler = LossAwareSampler(diffusion.timesteps)
    opt = torch.optim.Adam(model.parameters(), lr=2e-4)

    smoothed_loss = 0.0
    smoothed_loss_val = 0.0
    global_step = 0
    for epoch in range(epochs):
        for step in range(steps_per_epoch):
            idx = torch.randint(0, data.size(0), (batch_size,))
            x = data[idx]
            t = sampler.sample(batch_size)
            per_sample = diffusion.p_losses(model, x, t)
            loss = per_sample.mean()

            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            ema.update(model)
            sampler.update_with_local_losses(t.tolist(), per_sample.detach().tolist())  # ok

            smoothed_loss = 0.98 * smoothed_loss + 0.02 * loss  # expect: TEN501
            smoothed_loss_val = 0.98 * smoothed_loss_val + 0.02 * loss.item()  # ok
            global_step += 1
        print(f"epoch {epoch} step {global_step} loss {smoothed_loss_val:.4f}")

    samples, frames = diffusion.sample(ema.ema_model, (4, 1, 8, 8))
    print("sampled", tuple(samples.shape), "frames kept", len(frames), float(smoothed_loss))


if __name__ == "__main__":
    main()
