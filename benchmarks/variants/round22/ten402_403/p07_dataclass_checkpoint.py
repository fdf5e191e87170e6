"""Best-checkpoint record as a dataclass, plus a namedtuple for the previous epoch."""
import copy
from collections import namedtuple
from dataclasses import dataclass, field

import torch
from torch import nn

torch.manual_seed(0)


@dataclass
class Checkpoint:
    epoch: int
    val_loss: float
    weights: dict = field(repr=False)


Previous = namedtuple("Previous", ["epoch", "params"])


def val_loss(model, x, y):
    with torch.no_grad():
        return nn.functional.smooth_l1_loss(model(x), y).item()


model = nn.Sequential(nn.Linear(3, 12), nn.Softplus(), nn.Linear(12, 2))
opt = torch.optim.RMSprop(model.parameters(), lr=0.05)
x, xv = torch.randn(20, 3), torch.randn(80, 3)
f = lambda t: torch.stack([t[:, 0] * t[:, 1], t[:, 2].cos()], 1)
y, yv = f(x) + 0.3 * torch.randn(20, 2), f(xv)

best = None
best_safe = None
prev = None
for epoch in range(15):
    for _ in range(5):
        opt.zero_grad()
        nn.functional.smooth_l1_loss(model(x), y).backward()
        opt.step()
    if prev is not None:
        moved = sum((p.detach() - q).norm().item() for p, q in zip(model.parameters(), prev.params))
        print(f"epoch {epoch:2d}: moved {moved:.5f} since epoch {prev.epoch}")
    prev = Previous(epoch, [p for p in model.parameters()])  # expect: TEN402
    vl = val_loss(model, xv, yv)
    if best is None or vl < best.val_loss:
        best = Checkpoint(epoch, vl, model.state_dict())  # expect: TEN402
        best_safe = Checkpoint(epoch, vl, copy.deepcopy(model.state_dict()))  # ok

last = val_loss(model, xv, yv)
model.load_state_dict(best.weights)
print(f"best {best}; last {last:.5f}; after loading best.weights {val_loss(model, xv, yv):.5f}")
model.load_state_dict(best_safe.weights)
print(f"after loading best_safe.weights {val_loss(model, xv, yv):.5f}")
