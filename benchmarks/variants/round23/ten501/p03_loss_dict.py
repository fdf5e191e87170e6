"""Composite loss returned as a dict of terms; per-term bookkeeping."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


def compute_losses(pred, target, weight):
    terms = {
        "mse": F.mse_loss(pred, target),
        "l1": F.l1_loss(pred, target),
        "reg": 1e-3 * sum((p ** 2).sum() for p in weight),
    }
    terms["total"] = terms["mse"] + 0.5 * terms["l1"] + terms["reg"]
    return terms


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
opt = torch.optim.SGD(net.parameters(), lr=0.05)
epoch_terms = defaultdict(float)
log_terms = defaultdict(list)
stat_history = []
for step in range(6):
    x, y = torch.randn(3, 4), torch.randn(3, 2)
    terms = compute_losses(net(x), y, list(net.parameters()))
    opt.zero_grad()
    terms["total"].backward()
    opt.step()
    for k, v in terms.items():
        epoch_terms[k] += v  # expect: TEN501
    for k, v in terms.items():
        log_terms[k].append(v.item())  # ok
    stats = {k: v.detach() for k, v in terms.items()}
    stat_history.append(stats)  # ok
print({k: round(float(v), 3) for k, v in epoch_terms.items()}, len(stat_history))
