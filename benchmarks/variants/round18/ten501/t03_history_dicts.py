"""Keeps a dictionary of metric histories, the way many example notebooks do."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
data = torch.randn(24, 5)
target = torch.randn(24, 1)

history = {"train_loss": [], "acc": [], "grad_norm": []}
per_term = defaultdict(list)
per_term_values = defaultdict(list)
hist = {}

for it in range(4):
    opt.zero_grad()
    out = model(data)
    mse = F.mse_loss(out, target)
    l1 = F.l1_loss(out, target)
    reg = 1e-3 * sum(p.pow(2).sum() for p in model.parameters())
    loss = mse + 0.5 * l1 + reg
    loss.backward()
    gn = sum(p.grad.norm().item() for p in model.parameters())
    opt.step()

    acc = ((out - target).abs() < 0.5).float().mean()
    history["train_loss"].append(loss)  # expect: TEN501
    history["acc"].append(acc.item())  # ok
    history["grad_norm"].append(gn)  # ok
    for name, value in {"mse": mse, "l1": l1}.items():
        per_term[name].append(value)  # expect: TEN501
        per_term_values[name].append(value.item())  # ok
    hist.setdefault("reg", []).append(reg)  # expect: TEN501
    hist.setdefault("lr", []).append(opt.param_groups[0]["lr"])  # ok

summary = {k: round(sum(v) / len(v), 4) for k, v in per_term_values.items()}
print("mean terms:", summary, "| acc:", history["acc"][-1], "| kept", len(hist["reg"]), "reg tensors")
