"""Keep the k hardest training examples (largest loss) in a heap for later inspection."""
import heapq
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def track_hardest(heap, k, losses, logits, ids):
    for i in range(losses.size(0)):
        item = (losses[i].item(), int(ids[i]), logits[i])
        if len(heap) < k:
            heapq.heappush(heap, item)
        else:
            heapq.heappushpop(heap, item)


class HardMiner:
    def __init__(self, k):
        self.k = k
        self.heap = []

    def offer(self, per_sample, logits, ids):
        for i in range(per_sample.size(0)):
            entry = (per_sample[i].item(), int(ids[i]), logits[i].detach())
            if len(self.heap) < self.k:
                heapq.heappush(self.heap, entry)
            else:
                heapq.heappushpop(self.heap, entry)


model = nn.Linear(6, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
hardest = []
miner = HardMiner(k=4)
for step in range(8):
    x = torch.randn(10, 6)
    y = torch.randint(0, 3, (10,))
    ids = torch.arange(step * 10, step * 10 + 10)
    logits = model(x)
    per_sample = F.cross_entropy(logits, y, reduction="none")
    loss = per_sample.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    track_hardest(hardest, 4, per_sample, logits, ids)  # expect: TEN501
    miner.offer(per_sample, logits, ids)  # ok

print("hardest ids", sorted(i for _, i, _ in hardest))
print("miner ids", sorted(i for _, i, _ in miner.heap))
print("top loss", round(max(l for l, _, _ in miner.heap), 4))
