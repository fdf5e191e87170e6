"""Warmup + cosine schedule; logging scale, gradient norms and parameter norms."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 1))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
total_steps, warmup = 6, 2
sched = torch.optim.lr_scheduler.LambdaLR(
    opt, lambda s: (s + 1) / warmup if s < warmup else 0.5 * (1 + math.cos(math.pi * s / total_steps)))
lrs, loss_scale_hist, grad_norms, param_norms = [], [], [], []
for step in range(total_steps):
    x, y = torch.randn(4, 5), torch.randn(4, 1)
    loss = F.mse_loss(model(x), y)
    scale = 1.0 / (step + 1)
    opt.zero_grad()
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
    opt.step()
    sched.step()
    lrs.append(sched.get_last_lr()[0])  # ok
    loss_scale_hist.append(scale * loss)  # expect: TEN501
    grad_norms.append(gn)  # ok
    param_norms.append(sum(p.norm() for p in model.parameters()))  # expect: TEN501
print(lrs[-1], len(loss_scale_hist), float(grad_norms[-1]), float(param_norms[-1]))
