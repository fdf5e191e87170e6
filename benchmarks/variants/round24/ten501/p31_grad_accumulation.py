"""Gradient accumulation over micro-batches with a smoothed-loss window for the progress bar."""
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
accum_steps = 3
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
window = deque(maxlen=4)
window_ok = deque(maxlen=4)
accum_loss = 0.0
accum_loss_ok = 0.0
logged = []
for micro_step in range(12):
    x, y = torch.randn(4, 8), torch.randn(4, 1)
    loss = F.mse_loss(model(x), y) / accum_steps
    loss.backward()
    accum_loss += loss  # either: TEN501
    accum_loss_ok += loss.detach()  # ok
    window.append(loss)  # expect: TEN501
    window_ok.append(loss.item())  # ok
    if (micro_step + 1) % accum_steps == 0:
        opt.step()
        opt.zero_grad(set_to_none=True)
        logged.append(float(accum_loss_ok))
        accum_loss = 0.0
        accum_loss_ok = 0.0
print(logged, sum(window_ok) / len(window_ok), len(window))
