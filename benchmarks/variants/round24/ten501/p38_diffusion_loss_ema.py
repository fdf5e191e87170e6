"""Tiny DDPM training loop with a smoothed loss and per-timestep loss statistics."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
T = 10
betas = torch.linspace(1e-4, 0.2, T)
alphas_bar = torch.cumprod(1 - betas, 0)


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(5, 32), nn.SiLU(), nn.Linear(32, 4))

    def forward(self, x, t):
        return self.net(torch.cat([x, t.float().unsqueeze(1) / T], 1))


model = Denoiser()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_ema = None
loss_ema_ok = None
t_losses = torch.zeros(T)
t_losses_ok = torch.zeros(T)
t_counts = torch.zeros(T)
for step in range(6):
    x0 = torch.randn(8, 4)
    t = torch.randint(0, T, (8,))
    noise = torch.randn_like(x0)
    ab = alphas_bar[t].unsqueeze(1)
    xt = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
    per_sample = F.mse_loss(model(xt, t), noise, reduction="none").mean(1)
    loss = per_sample.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    loss_ema = loss if loss_ema is None else 0.95 * loss_ema + 0.05 * loss  # expect: TEN501
    loss_ema_ok = loss.item() if loss_ema_ok is None else 0.95 * loss_ema_ok + 0.05 * loss.item()  # ok
    t_losses.index_add_(0, t, per_sample)  # expect: TEN501
    t_losses_ok.index_add_(0, t, per_sample.detach())  # ok
    t_counts.index_add_(0, t, torch.ones_like(per_sample))  # ok

frames = []
with torch.no_grad():
    x = torch.randn(2, 4)
    for i in reversed(range(T)):
        eps = model(x, torch.full((2,), i))
        x = (x - betas[i] / (1 - alphas_bar[i]).sqrt() * eps) / (1 - betas[i]).sqrt()
        frames.append(x)  # ok
print(float(loss_ema), loss_ema_ok, t_losses.requires_grad, len(frames))
