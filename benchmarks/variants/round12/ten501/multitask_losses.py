"""Uncertainty-weighted multi-task training (Kendall et al. style)."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTaskLoss(nn.Module):
    def __init__(self, tasks):
        super().__init__()
        self.tasks = list(tasks)
        self.fns = {"seg": F.cross_entropy, "depth": F.l1_loss, "normal": F.mse_loss}
        self.log_vars = nn.Parameter(torch.zeros(len(self.tasks)))

    def forward(self, outputs, targets):
        loss_dict = {}
        total = 0
        for i, task in enumerate(self.tasks):
            l = self.fns[task](outputs[task], targets[task])
            precision = torch.exp(-self.log_vars[i])
            loss_dict[task] = l
            total = total + precision * l + self.log_vars[i]  # ok
        return total, loss_dict


def train_epoch(model, criterion, loader, optimizer, history):
    model.train()
    running = defaultdict(float)
    step = 0
    for step, (x, targets) in enumerate(loader):
        outputs = model(x)
        loss, loss_dict = criterion(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        for name, val in loss_dict.items():
            history[name].append(val)  # expect: TEN501
            running[name] += val.item()  # ok
        history["total"].append(float(loss))  # ok
        weights = torch.exp(-criterion.log_vars)
        history["weights"].append(weights)  # expect: TEN501
        history["weights_np"].append(weights.detach().numpy().copy())  # ok
    return {k: v / (step + 1) for k, v in running.items()}


def main(model, train_loader, epochs=30):
    criterion = MultiTaskLoss(["seg", "depth", "normal"])
    optimizer = torch.optim.Adam(list(model.parameters()) + list(criterion.parameters()), lr=1e-4)
    history = defaultdict(list)
    summaries = []
    for epoch in range(epochs):
        summary = train_epoch(model, criterion, train_loader, optimizer, history)
        summaries.append(summary)  # ok
        print(epoch, {k: round(v, 4) for k, v in summary.items()})
    return history, summaries
