"""Multi-task learning with learned uncertainty weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(6, 8)
        self.reg = nn.Linear(8, 1)
        self.cls = nn.Linear(8, 3)
        self.log_vars = nn.Parameter(torch.zeros(2))

    def forward(self, x):
        h = F.relu(self.trunk(x))
        return self.reg(h), self.cls(h)


torch.manual_seed(0)
model = MultiHead()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
task_weights_log = []
running, running_ok = {}, {}
for step in range(4):
    x = torch.randn(5, 6)
    y_reg, y_cls = torch.randn(5, 1), torch.randint(0, 3, (5,))
    p_reg, p_cls = model(x)
    raw = {"reg": F.mse_loss(p_reg, y_reg), "cls": F.cross_entropy(p_cls, y_cls)}
    w = torch.exp(-model.log_vars)
    weighted = {k: w[i] * l + model.log_vars[i] for i, (k, l) in enumerate(raw.items())}
    per_task_batch = []
    for k, v in weighted.items():
        per_task_batch.append(v)  # ok
        running[k] = running.get(k, 0) + v  # expect: TEN501
        running_ok[k] = running_ok.get(k, 0.0) + v.item()  # ok
    opt.zero_grad()
    sum(per_task_batch).backward()
    opt.step()
    task_weights_log.append(torch.exp(-model.log_vars))  # expect: TEN501
print(len(task_weights_log), {k: round(float(v), 3) for k, v in running.items()}, running_ok)
