"""Windows of recent losses: bounded containers and a spike log."""
from collections import deque

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)

recent = deque(maxlen=5)
recent_values = deque(maxlen=5)
window = []
spikes = []
spike_steps = []
for step in range(14):
    x = torch.randn(6, 4) * (1 + step % 3)
    loss = nn.functional.mse_loss(model(x), x[:, :1])
    opt.zero_grad()
    loss.backward()
    opt.step()
    recent.append(loss)  # either
    recent_values.append(loss.item())  # ok
    window = (window + [loss])[-3:]  # either
    median = sorted(recent_values)[len(recent_values) // 2]
    if loss.item() >= median:
        spikes.append(loss)  # expect: TEN501
        spike_steps.append(step)  # ok

print(len(recent), len(window), len(spikes), spike_steps)
