"""A tiny in-memory SummaryWriter used like TensorBoard's."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MemoryWriter:
    def __init__(self):
        self.scalars = defaultdict(list)
        self.histograms = defaultdict(list)

    def add_scalar(self, tag, value, global_step):
        self.scalars[tag].append((global_step, value))

    def add_scalars(self, main_tag, tag_scalar_dict, global_step):
        for k, v in tag_scalar_dict.items():
            self.add_scalar(f"{main_tag}/{k}", v, global_step)

    def add_histogram(self, tag, values, global_step):
        self.histograms[tag].append((global_step, values))


writer = MemoryWriter()
model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 4))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
global_step = 0
for epoch in range(2):
    for i in range(3):
        x, y = torch.randn(5, 6), torch.randint(0, 4, (5,))
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        writer.add_scalar("train/loss", loss, global_step)  # expect: TEN501
        writer.add_scalar("train/loss_value", loss.item(), global_step)  # ok
        writer.add_histogram("train/logits", logits, global_step)  # expect: TEN501
        writer.add_histogram("params/fc2", model[2].weight.data, global_step)  # ok
        writer.add_scalars("lr", {"group0": opt.param_groups[0]["lr"]}, global_step)  # ok
        global_step += 1
print({k: len(v) for k, v in writer.scalars.items()})
