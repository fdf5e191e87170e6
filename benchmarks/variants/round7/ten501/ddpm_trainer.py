import copy
import math
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.cuda.amp import GradScaler, autocast
from torch.utils.data import DataLoader
from torchvision import utils


def cosine_beta_schedule(timesteps, s=0.008):
    steps = timesteps + 1
    x = torch.linspace(0, timesteps, steps, dtype=torch.float64)
    alphas_cumprod = torch.cos(((x / timesteps) + s) / (1 + s) * math.pi * 0.5) ** 2
    alphas_cumprod = alphas_cumprod / alphas_cumprod[0]
    betas = 1 - (alphas_cumprod[1:] / alphas_cumprod[:-1])
    return torch.clip(betas, 0, 0.999)


def extract(a, t, x_shape):
    b = t.shape[0]
    out = a.gather(-1, t)
    return out.reshape(b, *((1,) * (len(x_shape) - 1)))


class GaussianDiffusion(nn.Module):
    def __init__(self, model, image_size, timesteps=1000):
        super().__init__()
        self.model = model
        self.image_size = image_size
        self.num_timesteps = timesteps
        betas = cosine_beta_schedule(timesteps)
        alphas = 1.0 - betas
        alphas_cumprod = torch.cumprod(alphas, dim=0)
        self.register_buffer("betas", betas.float())
        self.register_buffer("sqrt_alphas_cumprod", torch.sqrt(alphas_cumprod).float())
        self.register_buffer("sqrt_one_minus_alphas_cumprod", torch.sqrt(1.0 - alphas_cumprod).float())
        self.register_buffer("sqrt_recip_alphas", torch.sqrt(1.0 / alphas).float())

    def q_sample(self, x_start, t, noise):
        return (extract(self.sqrt_alphas_cumprod, t, x_start.shape) * x_start
                + extract(self.sqrt_one_minus_alphas_cumprod, t, x_start.shape) * noise)

    def per_sample_losses(self, x_start):
        b = x_start.shape[0]
        t = torch.randint(0, self.num_timesteps, (b,), device=x_start.device).long()
        noise = torch.randn_like(x_start)
        x_noisy = self.q_sample(x_start, t, noise)
        pred = self.model(x_noisy, t)
        return F.mse_loss(pred, noise, reduction="none").mean(dim=[1, 2, 3]), t

    @torch.no_grad()
    def sample(self, batch_size=16):
        x = torch.randn(batch_size, 3, self.image_size, self.image_size, device=self.betas.device)
        for i in reversed(range(self.num_timesteps)):
            t = torch.full((batch_size,), i, device=x.device, dtype=torch.long)
            eps = self.model(x, t)
            coef = extract(self.betas, t, x.shape) / extract(self.sqrt_one_minus_alphas_cumprod, t, x.shape)
            mean = extract(self.sqrt_recip_alphas, t, x.shape) * (x - coef * eps)
            x = mean + (extract(self.betas, t, x.shape).sqrt() * torch.randn_like(x) if i > 0 else 0)
        return (x.clamp(-1, 1) + 1) * 0.5


class EMA:
    def __init__(self, model, beta=0.9999):
        self.beta = beta
        self.ema_model = copy.deepcopy(model).eval().requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for ema_p, p in zip(self.ema_model.parameters(), model.parameters()):
            ema_p.mul_(self.beta).add_(p, alpha=1 - self.beta)  # ok


def cycle(dl):
    while True:
        for data in dl:
            yield data


class Trainer:
    def __init__(self, diffusion, dataset, train_batch_size=32, lr=2e-4, train_num_steps=100000,
                 gradient_accumulate_every=2, amp=True, save_every=1000, results_folder="./results"):
        self.diffusion = diffusion.cuda()
        self.device = next(diffusion.parameters()).device
        self.dl = cycle(DataLoader(dataset, batch_size=train_batch_size, shuffle=True, pin_memory=True, num_workers=4))
        self.opt = torch.optim.Adam(diffusion.parameters(), lr=lr, betas=(0.9, 0.99))
        self.ema = EMA(diffusion)
        self.scaler = GradScaler(enabled=amp)
        self.amp = amp
        self.train_num_steps = train_num_steps
        self.gradient_accumulate_every = gradient_accumulate_every
        self.save_every = save_every
        self.results_folder = Path(results_folder)
        self.results_folder.mkdir(exist_ok=True)
        self.loss_per_t = [0.0] * diffusion.num_timesteps
        self.count_per_t = [0] * diffusion.num_timesteps
        self.step = 0

    def train(self):
        while self.step < self.train_num_steps:
            total_loss = 0.0
            for _ in range(self.gradient_accumulate_every):
                data = next(self.dl).to(self.device)
                with autocast(enabled=self.amp):
                    per_sample, t = self.diffusion.per_sample_losses(data)
                    loss = per_sample.mean() / self.gradient_accumulate_every
                    total_loss += loss.item()  # ok
                self.scaler.scale(loss).backward()
                for ti, li in zip(t.tolist(), per_sample):
                    self.loss_per_t[ti] += li  # expect: TEN501
                    self.count_per_t[ti] += 1

            self.scaler.unscale_(self.opt)
            torch.nn.utils.clip_grad_norm_(self.diffusion.parameters(), 1.0)
            self.scaler.step(self.opt)
            self.scaler.update()
            self.opt.zero_grad()
            self.ema.update(self.diffusion)

            if self.step % 100 == 0:
                print(f"step {self.step}: loss {total_loss:.4f}")
            if self.step != 0 and self.step % self.save_every == 0:
                milestone = self.step // self.save_every
                images = self.ema.ema_model.sample(batch_size=25)
                utils.save_image(images, str(self.results_folder / f"sample-{milestone}.png"), nrow=5)
                self.dump_timestep_profile(milestone)
            self.step += 1

    def dump_timestep_profile(self, milestone):
        prof = [float(s) / max(c, 1) for s, c in zip(self.loss_per_t, self.count_per_t)]
        torch.save({"loss_per_t": prof, "step": self.step}, str(self.results_folder / f"tprof-{milestone}.pt"))
