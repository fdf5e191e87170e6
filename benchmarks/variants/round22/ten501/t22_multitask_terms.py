"""Two-head model with learned task weights; per-task terms kept as tuples."""
from collections import namedtuple

import torch
from torch import nn

Terms = namedtuple("Terms", ["reg", "cls"])


class TwoHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(6, 16), nn.ReLU())
        self.reg = nn.Linear(16, 1)
        self.cls = nn.Linear(16, 3)
        self.log_vars = nn.Parameter(torch.zeros(2))

    def forward(self, x):
        h = self.trunk(x)
        return self.reg(h), self.cls(h)


def task_losses(model, x, y_reg, y_cls):
    p_reg, p_cls = model(x)
    return (nn.functional.mse_loss(p_reg.squeeze(1), y_reg),
            nn.functional.cross_entropy(p_cls, y_cls))


torch.manual_seed(0)
model = TwoHead()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)

history, history_f = [], []
per_task = [0.0, 0.0]
records, records_raw = [], []
weights_f, weight_hist = [], []

for step in range(8):
    x = torch.randn(12, 6)
    y_reg, y_cls = x[:, 0] * 3, torch.randint(0, 3, (12,))
    loss_a, loss_b = task_losses(model, x, y_reg, y_cls)
    w = torch.exp(-model.log_vars)
    loss = w[0] * loss_a + w[1] * loss_b + model.log_vars.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()

    history.append((loss_a, loss_b))  # expect: TEN501
    history_f.append((loss_a.item(), loss_b.item()))  # ok
    per_task[0] += loss_a  # expect: TEN501
    per_task[1] += loss_b.item()  # ok
    records.append(Terms(loss_a.detach(), loss_b.detach()))  # ok
    records_raw.append(Terms(*task_losses(model, x, y_reg, y_cls)))  # expect: TEN501
    weights_f.append(w.tolist())  # ok
    weight_hist.append(w)  # expect: TEN501

print(len(history), [round(v, 3) for v in history_f[-1]], round(per_task[1], 3), weights_f[-1])
