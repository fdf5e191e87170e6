"""Multi-task model: a dict of per-task losses summed into one objective."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class MultiHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(6, 16), nn.ReLU())
        self.cls = nn.Linear(16, 3)
        self.reg = nn.Linear(16, 1)

    def forward(self, x):
        h = self.trunk(x)
        return {"cls": self.cls(h), "reg": self.reg(h).squeeze(-1)}


def task_losses(outputs, batch):
    return {
        "cls": F.cross_entropy(outputs["cls"], batch["label"]),
        "reg": F.mse_loss(outputs["reg"], batch["target"]),
    }


weights = {"cls": 1.0, "reg": 0.5}
model = MultiHead()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

running = {}
running_values = {}
for step in range(8):
    x = torch.randn(12, 6)
    batch = {"label": torch.randint(0, 3, (12,)), "target": x[:, 0] - x[:, 1]}
    losses = task_losses(model(x), batch)
    weighted = []
    for name, l in losses.items():
        weighted.append(weights[name] * l)  # ok
        running[name] = running.get(name, 0.0) + l  # expect: TEN501
        running_values[name] = running_values.get(name, 0.0) + l.item()  # ok
    total = torch.stack(weighted).sum()
    opt.zero_grad()
    total.backward()
    opt.step()
    last_snapshot = {k: v.detach().item() for k, v in losses.items()}  # ok

print({k: v / 8 for k, v in running_values.items()}, last_snapshot)
