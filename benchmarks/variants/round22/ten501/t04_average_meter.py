"""Meters defined next to the loop: the keeping happens inside update()."""
from collections import deque

import torch
import torch.nn.functional as F
from torch import nn


class AverageMeter:
    """Computes and stores the average and current value."""

    def __init__(self, name):
        self.name = name
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val  # either: TEN501
        self.sum += val * n  # expect: TEN501
        self.count += n  # ok
        self.avg = self.sum / self.count  # either: TEN501

    def __str__(self):
        return f"{self.name} {float(self.avg):.4f}"


class SmoothedValue:
    """Windowed median plus global average, the detection-codebase way."""

    def __init__(self, window=4):
        self.deque = deque(maxlen=window)
        self.total = 0.0
        self.count = 0

    def update(self, value):
        self.deque.append(value)  # either: TEN501
        self.count += 1  # ok
        self.total += value  # expect: TEN501

    @property
    def global_avg(self):
        return float(self.total) / self.count


def accuracy(logits, target):
    pred = logits.argmax(1)
    return (pred == target).float().mean() * 100


def run():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 20), nn.ReLU(), nn.Linear(20, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = [(torch.randn(12, 6), torch.randint(0, 3, (12,))) for _ in range(8)]

    losses = AverageMeter("loss")
    top1 = AverageMeter("acc@1")
    det = AverageMeter("loss(det)")
    smooth = SmoothedValue()
    for epoch in range(2):
        for x, y in data:
            out = model(x)
            loss = F.cross_entropy(out, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            acc1 = accuracy(out, y)
            losses.update(loss, x.size(0))  # either: TEN501
            top1.update(acc1.item(), x.size(0))  # ok
            det.update(loss.detach(), x.size(0))  # ok
            smooth.update(loss)  # either: TEN501
    print(losses, top1, det, round(smooth.global_avg, 4))


if __name__ == "__main__":
    run()
