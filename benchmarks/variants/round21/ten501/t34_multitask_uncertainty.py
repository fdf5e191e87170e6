"""Multi-task learning with uncertainty weighting; per-task meters fed from a dict of loss terms."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Meter:
    def __init__(self):
        self.total, self.n = 0.0, 0

    def update(self, value, n=1):
        self.total += value * n
        self.n += n

    @property
    def avg(self):
        return self.total / max(1, self.n)


class MultiTaskNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(8, 32), nn.ReLU())
        self.cls_head = nn.Linear(32, 3)
        self.reg_head = nn.Linear(32, 1)
        self.log_vars = nn.Parameter(torch.zeros(2))

    def forward(self, x):
        h = self.trunk(x)
        return self.cls_head(h), self.reg_head(h).squeeze(1)


class UncertaintyLoss:
    def __call__(self, model, outputs, targets):
        logits, reg = outputs
        y_cls, y_reg = targets
        l_cls = F.cross_entropy(logits, y_cls)
        l_reg = F.mse_loss(reg, y_reg)
        precision = torch.exp(-model.log_vars)
        total = precision[0] * l_cls + model.log_vars[0] + precision[1] * l_reg + model.log_vars[1]
        return total, {"cls": l_cls, "reg": l_reg}, precision


def summarize(epoch, **terms):
    return {f"{epoch}/{k}": v for k, v in terms.items()}


x = torch.randn(240, 8)
y_cls = (x[:, 0] > 0).long() + (x[:, 1] > 0).long()
y_reg = x[:, 2] * 2 + 0.1 * torch.randn(240)
model = MultiTaskNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = UncertaintyLoss()
meters = defaultdict(Meter)
meters_ok = defaultdict(Meter)
precisions, log_var_trace, log_var_refs, aux_history = [], [], [], []
epoch_summaries = []

for epoch in range(3):
    for i in range(0, 240, 40):
        xb = x[i:i + 40]
        outputs = model(xb)
        total, terms, precision = criterion(model, outputs, (y_cls[i:i + 40], y_reg[i:i + 40]))
        opt.zero_grad()
        total.backward()
        opt.step()
        for k, v in terms.items():
            meters[k].update(v, len(xb))  # expect: TEN501
            meters_ok[k].update(v.item(), len(xb))  # ok
        aux_history.append(terms["reg"])  # expect: TEN501
        precisions.append(precision)  # expect: TEN501
        log_var_trace.append(model.log_vars.detach().clone())  # ok
        log_var_refs.append(model.log_vars)  # ok
    epoch_summaries.append(summarize(epoch, **terms))  # expect: TEN501
    epoch_summaries.append(summarize(epoch, total=total.item(), cls=meters_ok["cls"].avg))  # ok

print("meters:", {k: round(float(m.avg), 4) for k, m in meters.items()}, "ok:", {k: round(m.avg, 4) for k, m in meters_ok.items()})
print("final precisions:", precisions[-1].tolist(), "log_vars:", log_var_trace[-1].tolist(),
      "same parameter object:", all(r is model.log_vars for r in log_var_refs))
print("reg trend:", round(aux_history[0].item(), 3), "->", round(aux_history[-1].item(), 3), "summaries:", len(epoch_summaries))
