"""Multi-head face attribute model: age regression, gender and expression classification."""
from collections import Counter

import torch
import torch.nn as nn
import torch.nn.functional as F

HEADS = {"age": 1, "gender": 2, "expr": 7}
WEIGHTS = {"age": 0.1, "gender": 1.0, "expr": 1.0}


class MultiHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Conv2d(3, 32, 5, 2, 2), nn.ReLU(), nn.Conv2d(32, 64, 3, 2, 1),
                                   nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.heads = nn.ModuleDict({k: nn.Linear(64, d) for k, d in HEADS.items()})

    def forward(self, x):
        h = self.trunk(x)
        return {k: head(h) for k, head in self.heads.items()}


def head_loss(name, pred, target):
    if name == "age":
        return F.l1_loss(pred.squeeze(1), target.float())
    return F.cross_entropy(pred, target)


def train(model, loader, epochs=5):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    running = Counter()
    running_float = Counter()
    for epoch in range(epochs):
        for img, targets in loader:
            out = model(img)
            loss_dict = {k: head_loss(k, out[k], targets[k]) for k in HEADS}
            loss = sum(WEIGHTS[k] * v for k, v in loss_dict.items())  # ok
            opt.zero_grad()
            loss.backward()
            opt.step()
            for k, v in loss_dict.items():
                running[k] += v  # expect: TEN501
            running_float.update({k: v.item() for k, v in loss_dict.items()})  # ok
        print(epoch, {k: float(v) / len(loader) for k, v in running.items()})
        running.clear()
    return model


def train_with_total(model, loader):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    per_step = []
    for img, targets in loader:
        out = model(img)
        total = 0.0
        for k in HEADS:
            total += WEIGHTS[k] * head_loss(k, out[k], targets[k])  # ok
        opt.zero_grad()
        total.backward()
        opt.step()
        per_step.append({k: round(float(head_loss(k, out[k].detach(), targets[k])), 4) for k in HEADS})  # ok
    return per_step
