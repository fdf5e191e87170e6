"""Multi-task training where the loss is a dict of named components."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
        self.cls = nn.Linear(16, 3)
        self.reg = nn.Linear(16, 1)

    def forward(self, x):
        h = self.trunk(x)
        return {"cls": self.cls(h), "reg": self.reg(h).squeeze(1)}


def compute_losses(out, y_cls, y_reg):
    return {
        "ce": F.cross_entropy(out["cls"], y_cls),
        "mse": F.mse_loss(out["reg"], y_reg),
        "l1": out["reg"].abs().mean() * 0.01,
    }


model = MultiTask()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
epoch_log = defaultdict(float)
epoch_log_ok = defaultdict(float)
total_log = []
history = []
weights = {"ce": 1.0, "mse": 0.5, "l1": 1.0}

for epoch in range(2):
    for step in range(6):
        x = torch.randn(12, 8)
        y_cls = torch.randint(0, 3, (12,))
        y_reg = x[:, 0] - x[:, 1]
        losses = compute_losses(model(x), y_cls, y_reg)
        loss = sum(weights[k] * v for k, v in losses.items())
        opt.zero_grad()
        loss.backward()
        opt.step()
        for k, v in losses.items():
            epoch_log[k] += v  # expect: TEN501
            epoch_log_ok[k] += v.item()  # ok
        total_log.append(sum(losses.values()))  # expect: TEN501
        history.append({k: round(v.item(), 4) for k, v in losses.items()})  # ok
        step_summary = {}
        step_summary["loss"] = loss  # ok

print({k: round(float(v) / 12, 4) for k, v in epoch_log.items()})
print({k: round(v / 12, 4) for k, v in epoch_log_ok.items()}, len(total_log), history[-1], round(float(step_summary["loss"]), 4))
