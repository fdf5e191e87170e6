"""DDPM training loop (epsilon prediction) with an EMA copy of the model."""
import copy
import itertools
import math

import torch
import torch.nn.functional as F


def cosine_beta_schedule(timesteps, s=0.008):
    steps = timesteps + 1
    x = torch.linspace(0, timesteps, steps)
    alphas_cumprod = torch.cos(((x / timesteps) + s) / (1 + s) * math.pi * 0.5) ** 2
    alphas_cumprod = alphas_cumprod / alphas_cumprod[0]
    betas = 1 - (alphas_cumprod[1:] / alphas_cumprod[:-1])
    return torch.clip(betas, 0.0001, 0.9999)


class GaussianDiffusion:
    def __init__(self, timesteps=1000, device="cpu"):
        self.T = timesteps
        betas = cosine_beta_schedule(timesteps).to(device)
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.sqrt_ac = alphas_cumprod.sqrt()
        self.sqrt_1m_ac = (1.0 - alphas_cumprod).sqrt()

    def q_sample(self, x0, t, noise):
        return (self.sqrt_ac[t].view(-1, 1, 1, 1) * x0
                + self.sqrt_1m_ac[t].view(-1, 1, 1, 1) * noise)


@torch.no_grad()
def update_ema(ema_model, model, decay=0.9999):
    for ema_p, p in zip(ema_model.parameters(), model.parameters()):
        ema_p.mul_(decay).add_(p, alpha=1 - decay)  # ok
    for ema_b, b in zip(ema_model.buffers(), model.buffers()):
        ema_b.copy_(b)


def train(model, loader, total_steps=800_000, lr=2e-4, n_bins=10, log_every=500,
          warmup=5000, grad_clip=1.0, device="cuda"):
    diffusion = GaussianDiffusion(device=device)
    ema_model = copy.deepcopy(model).eval().requires_grad_(False)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warmup))

    ema_loss = None
    per_t = [[] for _ in range(n_bins)]
    data = itertools.cycle(loader)
    for step in range(total_steps):
        x0, _ = next(data)
        x0 = x0.to(device) * 2 - 1
        b = x0.size(0)
        t = torch.randint(0, diffusion.T, (b,), device=device)
        noise = torch.randn_like(x0)
        xt = diffusion.q_sample(x0, t, noise)

        pred = model(xt, t)
        mse = F.mse_loss(pred, noise, reduction="none").mean(dim=(1, 2, 3))
        loss = mse.mean()

        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
        opt.step()
        sched.step()
        update_ema(ema_model, model)

        ema_loss = loss if ema_loss is None else 0.99 * ema_loss + 0.01 * loss  # expect: TEN501
        bins = (t * n_bins // diffusion.T).tolist()
        for bin_idx, m in zip(bins, mse.detach().cpu()):
            per_t[bin_idx].append(m)  # ok

        if step % log_every == 0:
            by_bin = " ".join(f"{torch.stack(v).mean():.3f}" if v else "-" for v in per_t)
            print(f"step {step:7d} | loss(ema) {ema_loss.item():.4f} | lr {sched.get_last_lr()[0]:.2e} | {by_bin}")
            per_t = [[] for _ in range(n_bins)]
        if step % 50_000 == 0 and step > 0:
            torch.save({"model": model.state_dict(), "ema": ema_model.state_dict(), "step": step},
                       f"ddpm_{step:07d}.pt")
    return ema_model
