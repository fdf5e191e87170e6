import copy
import math
import os

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms
from torchvision.utils import save_image

from unet_small import UNetModel  # local model definition


def cosine_beta_schedule(timesteps, s=0.008):
    steps = timesteps + 1
    x = torch.linspace(0, timesteps, steps, dtype=torch.float64)
    alphas_cumprod = torch.cos(((x / timesteps) + s) / (1 + s) * math.pi * 0.5) ** 2
    alphas_cumprod = alphas_cumprod / alphas_cumprod[0]
    betas = 1 - (alphas_cumprod[1:] / alphas_cumprod[:-1])
    return torch.clip(betas, 0.0001, 0.9999).float()


class DiffusionTrainer:
    def __init__(self, model, timesteps=1000, lr=2e-4, ema_decay=0.9999, device="cuda"):
        self.model = model.to(device)
        self.ema_model = copy.deepcopy(self.model).eval().requires_grad_(False)
        self.T = timesteps
        self.device = device
        self.ema_decay = ema_decay
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=lr, weight_decay=0.0)

        betas = cosine_beta_schedule(timesteps).to(device)
        alphas = 1.0 - betas
        self.betas = betas
        self.alphas_cumprod = torch.cumprod(alphas, dim=0)
        self.sqrt_ac = self.alphas_cumprod.sqrt()
        self.sqrt_one_minus_ac = (1.0 - self.alphas_cumprod).sqrt()

        self.t_loss_sum = torch.zeros(timesteps, device=device)
        self.t_count = torch.zeros(timesteps, device=device)

    def q_sample(self, x0, t, noise):
        return self.sqrt_ac[t].view(-1, 1, 1, 1) * x0 + self.sqrt_one_minus_ac[t].view(-1, 1, 1, 1) * noise

    def train_step(self, x0):
        b = x0.size(0)
        t = torch.randint(0, self.T, (b,), device=self.device)
        noise = torch.randn_like(x0)
        xt = self.q_sample(x0, t, noise)
        pred = self.model(xt, t)
        per_sample = F.mse_loss(pred, noise, reduction="none").mean(dim=(1, 2, 3))
        loss = per_sample.mean()

        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.opt.step()
        self.update_ema()

        self.t_loss_sum.index_add_(0, t, per_sample)  # expect: TEN501
        self.t_count.index_add_(0, t, torch.ones_like(per_sample))  # ok
        return loss.item()

    @torch.no_grad()
    def update_ema(self):
        for ema_p, p in zip(self.ema_model.parameters(), self.model.parameters()):
            ema_p.mul_(self.ema_decay).add_(p, alpha=1 - self.ema_decay)  # ok

    def loss_by_timestep_bucket(self, n_buckets=10):
        mean_t = self.t_loss_sum / self.t_count.clamp(min=1)
        return [chunk.mean().item() for chunk in mean_t.chunk(n_buckets)]

    @torch.no_grad()
    def sample(self, shape, save_every=100):
        x = torch.randn(shape, device=self.device)
        trajectory = []
        for i in reversed(range(self.T)):
            t = torch.full((shape[0],), i, device=self.device, dtype=torch.long)
            eps = self.ema_model(x, t)
            alpha = 1.0 - self.betas[i]
            mean = (x - self.betas[i] / self.sqrt_one_minus_ac[i] * eps) / alpha.sqrt()
            x = mean + self.betas[i].sqrt() * torch.randn_like(x) if i > 0 else mean
            if i % save_every == 0:
                trajectory.append(x.clamp(-1, 1).cpu())  # ok
        return x, trajectory


def main(steps=800_000, batch_size=128, log_every=1000, sample_every=20_000):
    tf = transforms.Compose([
        transforms.RandomHorizontalFlip(),
        transforms.ToTensor(),
        transforms.Normalize([0.5] * 3, [0.5] * 3),
    ])
    ds = datasets.CIFAR10("data", train=True, download=True, transform=tf)
    loader = DataLoader(ds, batch_size=batch_size, shuffle=True, num_workers=8, drop_last=True, pin_memory=True)
    trainer = DiffusionTrainer(UNetModel(ch=128, ch_mult=(1, 2, 2, 2), attn=(1,), dropout=0.1))
    os.makedirs("ddpm_out", exist_ok=True)

    step = 0
    while step < steps:
        for x0, _ in loader:
            loss = trainer.train_step(x0.to(trainer.device, non_blocking=True))
            step += 1
            if step % log_every == 0:
                buckets = " ".join(f"{v:.4f}" for v in trainer.loss_by_timestep_bucket())
                print(f"step {step} loss {loss:.4f} | per-t buckets {buckets}")
            if step % sample_every == 0:
                imgs, _ = trainer.sample((64, 3, 32, 32))
                save_image(imgs * 0.5 + 0.5, f"ddpm_out/step_{step}.png", nrow=8)
                torch.save({"model": trainer.model.state_dict(), "ema": trainer.ema_model.state_dict()},
                           "ddpm_out/ckpt.pt")
            if step >= steps:
                break


if __name__ == "__main__":
    main()
