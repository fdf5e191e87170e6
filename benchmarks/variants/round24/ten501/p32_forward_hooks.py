"""Feature extraction with forward hooks registered on intermediate layers."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 20), nn.ReLU(), nn.Linear(20, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
activations = {"layer1": [], "layer3": []}
act_norms = []
act_means_ok = []


def save_layer1(module, inp, out):
    activations["layer1"].append(out)  # expect: TEN501


def save_layer3(module, inp, out):
    activations["layer3"].append(out.detach())  # ok
    act_means_ok.append(out.mean().item())  # ok


def track_norm(module, inp, out):
    act_norms.append(out.norm(dim=1).mean())  # expect: TEN501


handles = [
    model[1].register_forward_hook(save_layer1),
    model[3].register_forward_hook(save_layer3),
    model[2].register_forward_hook(track_norm),
]
for step in range(5):
    x, y = torch.randn(6, 10), torch.randint(0, 4, (6,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
for h in handles:
    h.remove()
print(len(activations["layer1"]), len(activations["layer3"]), float(act_norms[-1]))
