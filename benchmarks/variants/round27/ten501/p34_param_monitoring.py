"""Monitoring weight norms / snapshots of parameters during training."""
import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
weight_norms, weight_norms_ok = [], []
snapshots, snapshots_ok = [], []
spectral = []
grad_stats = {}

for step in range(8):
    x = torch.randn(16, 6)
    loss = nn.functional.cross_entropy(model(x), (x[:, 0] > 0).long())
    opt.zero_grad()
    loss.backward()
    opt.step()
    weight_norms.append(model[0].weight.norm())  # expect: TEN501
    with torch.no_grad():
        weight_norms_ok.append(model[0].weight.norm())  # ok
    if step % 2 == 0:
        snapshots.append(model[2].weight * 1.0)  # expect: TEN501
        snapshots_ok.append(model[2].weight.detach().clone())  # ok
    for name, p in model.named_parameters():
        grad_stats[name] = grad_stats.get(name, 0.0) + p.norm()  # expect: TEN501
    spectral.append(torch.linalg.matrix_norm(model[0].weight.data, ord=2))  # ok

drift = (snapshots_ok[-1] - snapshots_ok[0]).norm().item()
print("norms", round(weight_norms[-1].item(), 4), round(weight_norms_ok[-1].item(), 4))
print("drift", round(drift, 4), "spectral", round(spectral[-1].item(), 4), len(snapshots))
