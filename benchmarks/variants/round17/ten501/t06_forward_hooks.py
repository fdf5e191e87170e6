"""Activation statistics gathered with forward hooks while training."""
from collections import defaultdict

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(
    nn.Linear(8, 16), nn.ReLU(),
    nn.Linear(16, 16), nn.ReLU(),
    nn.Linear(16, 2),
)

activations = defaultdict(list)
act_stats = defaultdict(list)
latest = {}


def save_activation(name):
    def hook(module, inputs, output):
        activations[name].append(output)  # expect: TEN501
    return hook


def save_stats(name):
    def hook(module, inputs, output):
        act_stats[name].append(output.detach().abs().mean().item())  # ok
        latest[name] = output.detach()  # ok
    return hook


model[1].register_forward_hook(save_activation("relu1"))
model[3].register_forward_hook(save_stats("relu2"))

opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(6):
    x = torch.randn(10, 8)
    y = torch.randint(0, 2, (10,))
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()

print(len(activations["relu1"]), act_stats["relu2"][-1], latest["relu2"].shape)
