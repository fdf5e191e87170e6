"""Online hard-example mining: keep the worst examples in a heap and replay them."""
import heapq
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F


class HardExampleMiner:
    def __init__(self, capacity=8):
        self.capacity = capacity
        self.heap = []
        self.replay_heap = []
        self.logit_cache = {}
        self._tie = itertools.count()

    def offer(self, xs, losses, embeddings):
        for x, l, e in zip(xs, losses, embeddings):
            heapq.heappush(self.heap, (float(l), next(self._tie), x, e))
            heapq.heappush(self.replay_heap, (l.item(), next(self._tie), x, e.detach()))  # ok
            if len(self.heap) > self.capacity:
                heapq.heappop(self.heap)
                heapq.heappop(self.replay_heap)

    def replay_batch(self):
        return torch.stack([item[2] for item in self.replay_heap])


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(10, 24), nn.ReLU())
        self.head = nn.Linear(24, 3)

    def forward(self, x):
        e = self.body(x)
        return self.head(e), e


def main(steps=12, bs=16):
    torch.manual_seed(0)
    x = torch.randn(160, 10)
    y = (x[:, :3] + 0.3 * torch.randn(160, 3)).argmax(1)
    label_of = {tuple(r.tolist()): int(t) for r, t in zip(x, y)}
    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=5e-3)
    miner = HardExampleMiner()
    for batch_idx in range(steps):
        idx = torch.randint(0, 160, (bs,))
        logits, emb = net(x[idx])
        per_ex = F.cross_entropy(logits, y[idx], reduction="none")
        loss = per_ex.mean()
        if batch_idx >= 2:
            hard = miner.replay_batch()
            hard_y = torch.tensor([label_of[tuple(r.tolist())] for r in hard])
            loss = loss + 0.5 * F.cross_entropy(net(hard)[0], hard_y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        miner.offer(x[idx], per_ex, emb)  # either
        miner.logit_cache[batch_idx] = logits  # expect: TEN501
        print(f"batch {batch_idx}: loss={loss.item():.4f} heap_min={miner.replay_heap[0][0]:.4f}")


if __name__ == "__main__":
    main()
