"""Keep the k hardest samples seen during training (hard example mining)."""
import heapq

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

K = 6
model = nn.Sequential(nn.Linear(7, 20), nn.ReLU(), nn.Linear(20, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(160, 7)
labels = (data[:, 0] * 2 + data[:, 1]).clamp(-1, 1).round().long() + 1

hardest = []
hardest_ids = []
hardest_lite = []
for step, start in enumerate(range(0, 160, 10)):
    xb, yb = data[start:start + 10], labels[start:start + 10]
    per_sample = F.cross_entropy(model(xb), yb, reduction="none")
    loss = per_sample.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    worst_val, worst_pos = per_sample.max(0)
    heapq.heappush(hardest, (worst_val.item(), step, per_sample))  # expect: TEN501
    heapq.heappush(hardest_ids, (worst_val.item(), step, int(worst_pos)))  # ok
    if len(hardest_lite) < K:
        heapq.heappush(hardest_lite, (worst_val.item(), step, per_sample.detach()))  # ok
    else:
        heapq.heappushpop(hardest_lite, (worst_val.item(), step, per_sample.detach()))  # ok
    if len(hardest) > K:
        heapq.heappop(hardest)
print("hardest", [round(v, 3) for v, _, _ in sorted(hardest, reverse=True)])
print("ids", [(s, i) for _, s, i in heapq.nlargest(3, hardest_ids)])
print("lite", [round(v, 3) for v, _, _ in sorted(hardest_lite, reverse=True)])
