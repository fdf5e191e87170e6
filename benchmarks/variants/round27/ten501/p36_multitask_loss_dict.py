"""Multi-task model; compute_losses() returns a dict that the loop aggregates per key."""
from collections import Counter
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MultiHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(6, 20)
        self.heads = nn.ModuleDict({"seg": nn.Linear(20, 3), "depth": nn.Linear(20, 1), "edge": nn.Linear(20, 1)})

    def forward(self, x):
        h = torch.relu(self.trunk(x))
        return {k: head(h) for k, head in self.heads.items()}


def compute_losses(out, tgt):
    return {
        "seg": F.cross_entropy(out["seg"], tgt["seg"]),
        "depth": F.l1_loss(out["depth"].squeeze(1), tgt["depth"]),
        "edge": F.binary_cross_entropy_with_logits(out["edge"].squeeze(1), tgt["edge"]),
    }


model = MultiHead()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
weights = {"seg": 1.0, "depth": 0.5, "edge": 0.2}
epoch_losses = Counter()
epoch_losses_ok = Counter()
per_task_hist = {}
for it in range(6):
    x = torch.randn(12, 6)
    tgt = {"seg": torch.randint(0, 3, (12,)), "depth": x[:, 0].abs(), "edge": (x[:, 1] > 0).float()}
    losses = compute_losses(model(x), tgt)
    total = sum(weights[k] * v for k, v in losses.items())
    opt.zero_grad()
    total.backward()
    opt.step()
    for k, v in losses.items():
        epoch_losses[k] += v  # expect: TEN501
        epoch_losses_ok[k] += v.item()  # ok
        per_task_hist.setdefault(k, []).append(v)  # expect: TEN501

print({k: round(v.item() / 6, 4) for k, v in epoch_losses.items()})
print({k: round(v / 6, 4) for k, v in epoch_losses_ok.items()})
