"""Smoothed loss for a progress bar using a bounded deque window."""
from collections import deque

import torch
import torch.nn as nn

torch.manual_seed(0)

net = nn.Sequential(nn.Conv1d(2, 4, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 20, 1))
opt = torch.optim.RMSprop(net.parameters(), lr=1e-3)

window = deque(maxlen=5)
window_f = deque(maxlen=5)
grad_norms = deque(maxlen=5)
for it in range(14):
    x = torch.randn(8, 2, 20)
    y = x.mean(dim=(1, 2)).unsqueeze(1)
    loss = nn.functional.smooth_l1_loss(net(x), y)
    opt.zero_grad()
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
    opt.step()
    window.append(loss)  # expect: TEN501
    window_f.append(loss.item())  # ok
    grad_norms.append(gn)  # ok
    if it % 4 == 0:
        smooth = sum(window) / len(window)
        print(f"it {it:2d} smooth {smooth.item():.4f} {sum(window_f) / len(window_f):.4f} gn {float(grad_norms[-1]):.3f}")
