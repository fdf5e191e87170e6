"""Snapshot ensembles (cyclic cosine LR): one snapshot per cycle, ensemble at test time."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(200, 6)
y = ((x[:, 0] * x[:, 1]) > 0).long()
xt = torch.randn(200, 6)
yt = ((xt[:, 0] * xt[:, 1]) > 0).long()
net = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.SGD(net.parameters(), lr=0.5)
cycle, n_cycles = 15, 3
snapshots, snapshots64 = [], []
for it in range(cycle * n_cycles):
    for g in opt.param_groups:
        g["lr"] = 0.25 * (1 + math.cos(math.pi * (it % cycle) / cycle))
    opt.zero_grad()
    F.cross_entropy(net(x), y).backward()
    opt.step()
    if it % cycle == cycle - 1:
        snapshots.append(net.state_dict())  # expect: TEN402
        snapshots64.append({k: v.double() for k, v in net.state_dict().items()})  # ok

model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 2))
with torch.no_grad():
    for name, snaps in (("snapshots", snapshots), ("float64 copies", snapshots64)):
        probs = 0
        for sd in snaps:
            model.load_state_dict(sd)
            probs = probs + F.softmax(model(xt), -1)
        print(name, "ensemble acc", round((probs.argmax(1) == yt).float().mean().item(), 4),
              "mean max prob", round((probs / len(snaps)).max(1).values.mean().item(), 6))
