"""Best-checkpoint records kept in a dataclass; one in memory, one serialised."""
import io
from dataclasses import dataclass, field

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


@dataclass
class Checkpoint:
    epoch: int
    score: float
    weights: dict = field(default_factory=dict)


@dataclass
class BlobCheckpoint:
    epoch: int
    score: float
    blob: bytes = b""


def accuracy(model, x, y):
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=2.0)  # large lr: accuracy oscillates
x = torch.randn(200, 2)
y = (x[:, 0] > 0).long()
xv = torch.randn(200, 2)
yv = (xv[:, 0] > 0).long()

best = Checkpoint(-1, -1.0)
best_blob = BlobCheckpoint(-1, -1.0)
for epoch in range(25):
    opt.zero_grad()
    nn.functional.cross_entropy(model(x), y).backward()
    opt.step()
    acc = accuracy(model, xv, yv)
    if acc > best.score:
        best = Checkpoint(epoch, acc, model.state_dict())  # expect: TEN402
        buf = io.BytesIO()
        torch.save(model.state_dict(), buf)  # ok
        best_blob = BlobCheckpoint(epoch, acc, buf.getvalue())

last_acc = accuracy(model, xv, yv)
model.load_state_dict(best.weights)
acc_dc = accuracy(model, xv, yv)
model.load_state_dict(torch.load(io.BytesIO(best_blob.blob)))
acc_blob = accuracy(model, xv, yv)
print(f"best epoch={best.epoch} recorded={best.score:.3f} last={last_acc:.3f} "
      f"restored_dataclass={acc_dc:.3f} restored_blob={acc_blob:.3f}")
