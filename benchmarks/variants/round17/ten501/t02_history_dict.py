"""Classifier training that keeps a keras-style history dict."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def make_blobs(n=120, k=3, d=4):
    centers = torch.randn(k, d) * 3
    y = torch.randint(0, k, (n,))
    return centers[y] + torch.randn(n, d), y


X, Y = make_blobs()
net = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 3))
optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=5, gamma=0.5)

history = defaultdict(list)
for step in range(12):
    idx = torch.randint(0, 120, (24,))
    logits = net(X[idx])
    loss = F.cross_entropy(logits, Y[idx])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()

    acc = (logits.argmax(dim=1) == Y[idx]).float().mean()
    history["loss"].append(loss)  # expect: TEN501
    history["acc"].append(acc)  # ok
    history["lr"].append(optimizer.param_groups[0]["lr"])  # ok
    history["loss_value"].append(float(loss.detach()))  # ok
    history["logit_norm"].append(logits.detach().norm(dim=1).mean())  # ok

print({k: len(v) for k, v in history.items()}, history["loss_value"][-1])
