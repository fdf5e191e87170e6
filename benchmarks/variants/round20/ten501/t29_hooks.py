"""Forward / backward hooks that collect activations and gradients."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 12), nn.ReLU(), nn.Linear(12, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.05)

activations = defaultdict(list)
activations_ok = defaultdict(list)
act_stats = defaultdict(list)
grad_outs = defaultdict(list)
logit_grads = []


def save_activation(name):
    def hook(module, inp, out):
        activations[name].append(out)  # expect: TEN501
        activations_ok[name].append(out.detach())  # ok
        act_stats[name].append((out > 0).float().mean())  # ok
    return hook


def save_grad(name):
    def hook(module, grad_input, grad_output):
        grad_outs[name].append(grad_output[0])  # ok
    return hook


model[1].register_forward_hook(save_activation("relu1"))
model[3].register_forward_hook(save_activation("relu2"))
model[4].register_full_backward_hook(save_grad("head"))

inputs_seen = []
for step in range(8):
    x, y = torch.randn(10, 6), torch.randint(0, 2, (10,))
    logits = model(x)
    logits.register_hook(lambda g: logit_grads.append(g))  # ok
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    inputs_seen.append(x)  # ok

print({k: len(v) for k, v in activations.items()}, round(float(activations["relu2"][-1].sum()), 4))
print("sparsity", round(float(torch.stack(act_stats["relu1"]).mean()), 4), "grads", len(grad_outs["head"]),
      round(float(torch.cat(logit_grads).abs().sum()), 5), len(inputs_seen))
