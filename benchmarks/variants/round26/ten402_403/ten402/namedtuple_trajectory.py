from collections import namedtuple

import torch
import torch.nn as nn

torch.manual_seed(0)

Snap = namedtuple("Snap", ["step", "params"])

model = nn.Sequential(nn.Conv1d(1, 4, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 16, 1))
opt = torch.optim.RMSprop(model.parameters(), lr=1e-2)
x = torch.randn(64, 1, 16)
y = x.mean(-1)

trajectory = []
reference = Snap(0, [p.double() for p in model.parameters()])  # ok
for step in range(1, 41):
    opt.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()
    if step % 10 == 0:
        trajectory.append(Snap(step, [p.data for p in model.parameters()]))  # expect: TEN402


def dist(a, b):
    return sum((u.double() - v.double()).norm() ** 2 for u, v in zip(a, b)).sqrt().item()


for prev, cur in zip(trajectory, trajectory[1:]):
    print(f"step {prev.step}->{cur.step}: moved {dist(prev.params, cur.params):.6f}")
print(f"total distance from init {dist(reference.params, list(model.parameters())):.6f}")
