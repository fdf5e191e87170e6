"""Loss-dict tracker used by a multi-task model."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class LossTracker:
    def __init__(self):
        self.totals = defaultdict(float)
        self.count = 0

    def update(self, losses):
        for k in losses:
            self.totals[k] += losses[k]
        self.count += 1

    def means(self):
        return {k: float(v) / self.count for k, v in self.totals.items()}


class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(10, 32)
        self.cls = nn.Linear(32, 4)
        self.reg = nn.Linear(32, 1)

    def forward(self, x):
        h = torch.relu(self.trunk(x))
        return self.cls(h), self.reg(h)


def compute_losses(outputs, labels, targets):
    logits, values = outputs
    ce = F.cross_entropy(logits, labels)
    mse = F.mse_loss(values.squeeze(-1), targets)
    return {"ce": ce, "mse": mse, "total": ce + 0.5 * mse}


def train(model, n_epochs=2, n_iter=5):
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    for epoch in range(n_epochs):
        tracker = LossTracker()
        clean = LossTracker()
        for it in range(n_iter):
            x = torch.randn(16, 10)
            labels, targets = torch.randint(0, 4, (16,)), torch.randn(16)
            losses = compute_losses(model(x), labels, targets)
            opt.zero_grad()
            losses["total"].backward()
            opt.step()
            tracker.update(losses)  # expect: TEN501
            clean.update({k: v.item() for k, v in losses.items()})  # ok
        print(epoch, tracker.means(), clean.means())


if __name__ == "__main__":
    train(MultiTask())
