"""Continual learning with Dark Experience Replay: the buffer keeps (x, y, logits)."""
import random
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)


class ReservoirBuffer:
    def __init__(self, size):
        self.size = size
        self.seen = 0
        self.items = []

    def add(self, xs, ys, logits):
        for x, y, l in zip(xs, ys, logits):
            if len(self.items) < self.size:
                self.items.append((x, y, l))
            else:
                j = random.randint(0, self.seen)
                if j < self.size:
                    self.items[j] = (x, y, l)
            self.seen += 1

    def sample(self, n):
        batch = random.sample(self.items, min(n, len(self.items)))
        return [torch.stack(t) for t in zip(*batch)]


net = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 4))
opt = torch.optim.SGD(net.parameters(), lr=0.05)
buf_bug = ReservoirBuffer(20)
buf = ReservoirBuffer(20)
for task in range(2):
    for step in range(5):
        x = torch.randn(6, 5) + task
        y = torch.randint(2 * task, 2 * task + 2, (6,))
        logits = net(x)
        loss = F.cross_entropy(logits, y)
        if buf.items:
            bx, by, bl = buf.sample(6)
            loss = loss + 0.5 * F.mse_loss(net(bx), bl)
        opt.zero_grad()
        loss.backward()
        opt.step()
        buf_bug.add(x, y, logits)  # expect: TEN501
        buf.add(x, y, logits.detach())  # ok
    print("task", task, round(loss.item(), 4), len(buf.items), buf.seen)
