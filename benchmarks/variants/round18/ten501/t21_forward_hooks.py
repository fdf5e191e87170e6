"""Feature extraction and gradient inspection with module hooks during training."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 3))
features = []
features_detached = []
activations = {}
grads = []
grad_norms = []


def save_features(module, inputs, output):
    features.append(output)  # expect: TEN501


def save_features_detached(module, inputs, output):
    features_detached.append(output.detach())  # ok


def get_activation(name):
    def hook(module, inputs, output):
        activations[name] = output  # either
    return hook


def grad_hook(module, grad_input, grad_output):
    grads.append(grad_output[0])  # ok
    grad_norms.append(grad_output[0].norm().item())  # ok


handles = [
    model[0].register_forward_hook(save_features),
    model[1].register_forward_hook(get_activation("relu")),
    model[2].register_forward_hook(save_features_detached),
    model[2].register_full_backward_hook(grad_hook),
]
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(4):
    x, y = torch.randn(5, 6), torch.randint(0, 3, (5,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
for h in handles:
    h.remove()
print("features:", len(features), "grad norms:", [round(g, 4) for g in grad_norms], sorted(activations))
