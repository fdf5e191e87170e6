"""Uncertainty-weighted multi-task loss (Kendall et al.) with a per-task log."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(8, 32), nn.ReLU())
        self.reg_head = nn.Linear(32, 1)
        self.cls_head = nn.Linear(32, 4)
        self.log_vars = nn.Parameter(torch.zeros(2))

    def forward(self, x):
        h = self.shared(x)
        return self.reg_head(h).squeeze(-1), self.cls_head(h)


def main():
    model = MultiTask()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    per_task = defaultdict(list)
    weights_hist, weights_hist_ok = [], []
    for step in range(10):
        x = torch.randn(24, 8)
        y_reg, y_cls = x.sum(1), (x[:, :4]).argmax(1)
        pred_reg, pred_cls = model(x)
        losses = {"reg": F.mse_loss(pred_reg, y_reg), "cls": F.cross_entropy(pred_cls, y_cls)}
        precision = torch.exp(-model.log_vars)
        total = sum(precision[i] * l + model.log_vars[i] for i, l in enumerate(losses.values()))
        opt.zero_grad()
        total.backward()
        opt.step()
        for name, l in losses.items():
            per_task[name].append(l)  # expect: TEN501
        weights_hist.append(precision)  # expect: TEN501
        weights_hist_ok.append(torch.exp(-model.log_vars).detach().clone())  # ok
    print({k: round(float(v[-1]), 4) for k, v in per_task.items()})
    print("task weights", [round(w, 3) for w in weights_hist_ok[-1].tolist()])


main()
