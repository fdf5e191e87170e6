"""AverageMeter / SmoothedValue bookkeeping around a tiny conv classifier."""
import time
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F


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
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def __str__(self):
        return f"{self.name} {float(self.val):.4f} ({float(self.avg):.4f})"


class SmoothedValue:
    """Median over a short sliding window, for the progress line."""

    def __init__(self, window=4):
        self.values = deque(maxlen=window)

    def update(self, value):
        self.values.append(value)

    @property
    def median(self):
        return torch.stack(list(self.values)).median().item()


class TinyConvNet(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 4 * 4, n_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv(x)), 2)
        return self.fc(x.flatten(1))


def train_one_epoch(model, opt, loader, meters, window):
    model.train()
    end = time.perf_counter()
    for images, target in loader:
        out = model(images)
        loss = F.cross_entropy(out, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        top1 = (out.argmax(1) == target).float().mean() * 100
        meters["loss"].update(loss, images.size(0))  # expect: TEN501
        meters["top1"].update(top1.item(), images.size(0))  # ok
        meters["time"].update(time.perf_counter() - end)  # ok
        window.update(loss)  # either
        end = time.perf_counter()


def validate(model, loader):
    meter = AverageMeter("val_loss")
    model.eval()
    with torch.no_grad():
        for images, target in loader:
            vloss = F.cross_entropy(model(images), target)
            meter.update(vloss, images.size(0))  # ok
    return meter.avg


def make_loader(n_batches, bs=8, n_classes=5):
    return [(torch.randn(bs, 1, 8, 8), torch.randint(0, n_classes, (bs,))) for _ in range(n_batches)]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyConvNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    train_loader, val_loader = make_loader(4), make_loader(2)
    window = SmoothedValue()
    epoch_avgs, val_avgs = [], []
    grand_total, seen_total = 0.0, 0
    for epoch in range(3):
        meters = {k: AverageMeter(k) for k in ("loss", "top1", "time")}
        train_one_epoch(model, opt, train_loader, meters, window)
        epoch_avgs.append(meters["loss"].avg)  # expect: TEN501
        val_avgs.append(validate(model, val_loader))  # ok
        grand_total += meters["loss"].sum  # expect: TEN501
        seen_total += meters["loss"].count
        print(epoch, meters["loss"], meters["top1"], f"median={window.median:.3f}")
