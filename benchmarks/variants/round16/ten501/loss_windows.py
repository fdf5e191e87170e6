"""Plateau detection from windows of recent losses."""
from collections import deque

import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(3, 16), nn.Softplus(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
x = torch.linspace(-2, 2, 128).unsqueeze(1).repeat(1, 3) * torch.tensor([1.0, 0.5, -1.0])
y = torch.sin(2 * x[:, :1]) + 0.1 * x[:, 1:2]

recent = deque(maxlen=6)
all_time = deque()
last_five = []
recent_f = deque(maxlen=8)
spikes = []

for step in range(30):
    idx = torch.randint(0, 128, (32,))
    loss = nn.functional.mse_loss(model(x[idx]), y[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()

    recent.append(loss)  # either
    all_time.append(loss)  # expect: TEN501
    last_five = (last_five + [loss])[-5:]  # either
    recent_f.append(loss.item())  # ok

    window_mean = torch.stack(list(recent)).mean()
    if loss > 1.1 * window_mean:
        spikes.append((step, loss.item()))  # ok
    if len(recent_f) == recent_f.maxlen and max(recent_f) - min(recent_f) < 1e-3:
        for g in opt.param_groups:
            g["lr"] *= 0.5
        recent_f.clear()
    if step % 10 == 0:
        print(f"step {step}: loss {loss.item():.4f} window {window_mean.item():.4f} "
              f"last5 {torch.stack(last_five).mean().item():.4f}")

print("spikes:", spikes, "total steps:", len(all_time))
