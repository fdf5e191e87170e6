"""Forward/backward hooks that collect activations and gradients during training."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

activations = defaultdict(list)
activation_stats = defaultdict(list)
grad_norms = defaultdict(list)
latest = {}


def save_activation(name):
    def hook(module, inputs, output):
        activations[name].append(output)  # expect: TEN501
    return hook


def save_activation_stats(name):
    def hook(module, inputs, output):
        activation_stats[name].append(output.detach().abs().mean().cpu())  # ok
    return hook


def save_grad(name):
    def hook(module, grad_input, grad_output):
        grad_norms[name].append(grad_output[0].norm())  # ok
    return hook


def keep_latest(module, inputs, output):
    latest["fc2"] = output  # either


class DeadUnitMonitor:
    """Counts units that never activate; keeps a running OR of activity masks."""

    def __init__(self, layer):
        self.alive = None
        self.pre_act_sum = 0
        layer.register_forward_hook(self)

    def __call__(self, module, inputs, output):
        mask = (output > 0).any(dim=0)
        self.alive = mask if self.alive is None else (self.alive | mask)  # ok
        self.pre_act_sum = self.pre_act_sum + output.sum(0)  # expect: TEN501


model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
model[0].register_forward_hook(save_activation("fc1"))
model[2].register_forward_hook(save_activation_stats("fc2"))
model[2].register_forward_hook(keep_latest)
model[4].register_full_backward_hook(save_grad("out"))
monitor = DeadUnitMonitor(model[1])
opt = torch.optim.SGD(model.parameters(), lr=0.1)

x = torch.randn(200, 10)
y = (x[:, 0] * x[:, 1] > 0).long()
for epoch in range(2):
    for i in range(0, 200, 40):
        loss = F.cross_entropy(model(x[i:i + 40]), y[i:i + 40])
        opt.zero_grad()
        loss.backward()
        opt.step()

print("fc1 activations kept:", len(activations["fc1"]), "mean:", torch.cat(activations["fc1"]).mean().item())
print("fc2 |act| trend:", [round(v.item(), 4) for v in activation_stats["fc2"][::3]])
print("out grad norm mean:", torch.stack(grad_norms["out"]).mean().item(), "latest shape:", tuple(latest["fc2"].shape))
print("alive units:", int(monitor.alive.sum()), "pre-act mean:", (monitor.pre_act_sum / 400).mean().item())
