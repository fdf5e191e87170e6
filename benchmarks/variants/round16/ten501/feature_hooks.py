"""Inspecting intermediate activations with forward/backward hooks during training."""
from collections import defaultdict

import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Sequential(
    nn.Linear(10, 32), nn.ReLU(),
    nn.Linear(32, 32), nn.ReLU(),
    nn.Linear(32, 4),
)

activations = defaultdict(list)


def save_activation(name):
    def hook(module, inp, output):
        activations[name].append(output)  # expect: TEN501
    return hook


class ActivationStats:
    """Tracks the mean activation of every Linear layer, as a float per forward pass."""

    def __init__(self, net):
        self.means = defaultdict(list)
        self.handles = []
        for name, m in net.named_modules():
            if isinstance(m, nn.Linear):
                self.handles.append(m.register_forward_hook(self._make_hook(name)))

    def _make_hook(self, name):
        def fn(module, inputs, output):
            self.means[name].append(output.detach().mean().item())  # ok
        return fn

    def remove(self):
        for h in self.handles:
            h.remove()


latest = {}


def keep_latest(module, inp, out):
    latest["logits"] = out  # either


grad_norms = []


def grad_norm_hook(module, grad_input, grad_output):
    grad_norms.append(grad_output[0].norm())  # ok


handles = []
for name, module in model.named_modules():
    if isinstance(module, nn.ReLU):
        handles.append(module.register_forward_hook(save_activation(name)))
handles.append(model[4].register_forward_hook(keep_latest))
handles.append(model[2].register_full_backward_hook(grad_norm_hook))
stats = ActivationStats(model)

opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = nn.CrossEntropyLoss()
X = torch.randn(160, 10)
Y = (X[:, :4].argmax(1) + (X[:, 5] > 1).long()) % 4

for step in range(10):
    idx = torch.randint(0, 160, (32,))
    out = model(X[idx])
    loss = loss_fn(out, Y[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()

for h in handles:
    h.remove()
stats.remove()
print({k: len(v) for k, v in activations.items()}, len(grad_norms), sorted(stats.means))
print("dead fraction layer 1: %.3f" % (torch.cat(activations["1"]) == 0).float().mean().item())
