"""Minimal DDPM training loop with EMA weights and a smoothed loss readout."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def cosine_alphas(T=1000, s=0.008):
    t = torch.linspace(0, T, T + 1) / T
    f = torch.cos((t + s) / (1 + s) * math.pi / 2) ** 2
    abar = f / f[0]
    return abar[1:].clamp(1e-5, 1.0)


class TimeMLP(nn.Module):
    def __init__(self, dim=2, hidden=256):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 1, hidden), nn.SiLU(),
                                 nn.Linear(hidden, hidden), nn.SiLU(),
                                 nn.Linear(hidden, dim))

    def forward(self, x, t):
        return self.net(torch.cat([x, t[:, None].float() / 1000.0], dim=1))


class EMA:
    def __init__(self, model, decay=0.999):
        self.shadow = copy.deepcopy(model).eval()
        self.decay = decay
        for p in self.shadow.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.mul_(self.decay).add_(p, alpha=1 - self.decay)


def train(data, steps=10_000, T=1000):
    model = TimeMLP()
    ema = EMA(model)
    abar = cosine_alphas(T)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    smooth = None
    smooth_val = 0.0
    for step in range(steps):
        x0 = data[torch.randint(0, len(data), (256,))]
        t = torch.randint(0, T, (x0.size(0),))
        noise = torch.randn_like(x0)
        a = abar[t].sqrt()[:, None]
        xt = a * x0 + (1 - abar[t]).sqrt()[:, None] * noise
        loss = F.mse_loss(model(xt, t), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model)  # ok

        smooth = loss if smooth is None else 0.98 * smooth + 0.02 * loss  # expect: TEN501
        smooth_val = 0.98 * smooth_val + 0.02 * loss.item()  # ok
        if step % 500 == 0:
            print(f"step {step} loss {smooth_val:.4f}")
    return ema.shadow, smooth


@torch.no_grad()
def sample(model, n=512, T=1000, dim=2):
    abar = cosine_alphas(T)
    x = torch.randn(n, dim)
    trajectory = [x]
    for t in reversed(range(T)):
        tt = torch.full((n,), t)
        eps = model(x, tt)
        a_t = abar[t] / (abar[t - 1] if t > 0 else torch.tensor(1.0))
        x = (x - (1 - a_t) / (1 - abar[t]).sqrt() * eps) / a_t.sqrt()
        if t > 0:
            x = x + (1 - a_t).sqrt() * torch.randn_like(x)
        if t % 100 == 0:
            trajectory.append(x)  # ok
    return x, torch.stack(trajectory)
