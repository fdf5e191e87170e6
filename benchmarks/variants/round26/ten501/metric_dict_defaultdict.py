"""Multi-loss training step returning a dict of loss terms; caller keeps a history."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

encoder = nn.Sequential(nn.Linear(16, 32), nn.ReLU())
cls_head = nn.Linear(32, 5)
rec_head = nn.Linear(32, 16)
params = list(encoder.parameters()) + list(cls_head.parameters()) + list(rec_head.parameters())
opt = torch.optim.AdamW(params, lr=3e-3, weight_decay=0.01)


def compute_losses(x, y):
    z = encoder(x)
    losses = {
        "ce": F.cross_entropy(cls_head(z), y),
        "recon": F.mse_loss(rec_head(z), x),
        "l1_z": z.abs().mean() * 1e-3,
    }
    losses["total"] = sum(losses.values())
    return losses


def train_step(x, y):
    losses = compute_losses(x, y)
    opt.zero_grad()
    losses["total"].backward()
    opt.step()
    return losses


history = defaultdict(list)
history_f = defaultdict(list)
for step in range(10):
    x = torch.randn(24, 16)
    y = torch.randint(0, 5, (24,))
    out = train_step(x, y)
    for k, v in out.items():
        history[k].append(v)  # expect: TEN501
        history_f[k].append(v.item())  # ok
print({k: round(sum(v) / len(v), 4) for k, v in history_f.items()})
print({k: round(torch.stack(v).mean().item(), 4) for k, v in history.items()})
