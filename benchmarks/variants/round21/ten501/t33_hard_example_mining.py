"""Online hard-example mining: a heap of the worst samples seen so far, and a per-class worst list."""
import bisect
import heapq
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class HardExampleMiner:
    def __init__(self, k=16):
        self.k = k
        self.heap = []           # (loss, index) -- min-heap of the k hardest
        self.heap_ok = []
        self.sorted_losses = []
        self.recent = deque(maxlen=50)

    def observe(self, losses, indices):
        for loss_i, idx in zip(losses, indices.tolist()):
            if len(self.heap) < self.k:
                heapq.heappush(self.heap, (loss_i, idx))  # expect: TEN501
            else:
                heapq.heappushpop(self.heap, (loss_i, idx))  # expect: TEN501
            if len(self.heap_ok) < self.k:
                heapq.heappush(self.heap_ok, (loss_i.item(), idx))  # ok
            else:
                heapq.heappushpop(self.heap_ok, (loss_i.item(), idx))  # ok
            bisect.insort(self.sorted_losses, float(loss_i))  # ok
        self.recent.extend(losses.detach().tolist())  # ok

    def hard_indices(self):
        return torch.tensor([i for _, i in self.heap_ok])


x = torch.randn(256, 6)
y = (x[:, 0] ** 2 + x[:, 1] > 1).long()
model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
miner = HardExampleMiner()
worst_per_class = {0: [], 1: []}

for epoch in range(3):
    perm = torch.randperm(256)
    for i in range(0, 256, 32):
        idx = perm[i:i + 32]
        logits = model(x[idx])
        losses = F.cross_entropy(logits, y[idx], reduction="none")
        opt.zero_grad()
        losses.mean().backward()
        opt.step()
        miner.observe(losses, idx)
        for c in (0, 1):
            mask = y[idx] == c
            if mask.any():
                worst_per_class[c].append(losses[mask].max())  # expect: TEN501
    hard = miner.hard_indices()
    if len(hard):
        opt.zero_grad()
        F.cross_entropy(model(x[hard]), y[hard]).backward()
        opt.step()

print("k hardest (heap):", sorted(round(float(l), 3) for l, _ in miner.heap)[-3:])
print("k hardest (ok heap):", sorted(round(l, 3) for l, _ in miner.heap_ok)[-3:])
print("median loss seen:", miner.sorted_losses[len(miner.sorted_losses) // 2], "recent mean:", sum(miner.recent) / len(miner.recent))
print("worst per class:", {c: round(torch.stack(v).max().item(), 3) for c, v in worst_per_class.items()})
