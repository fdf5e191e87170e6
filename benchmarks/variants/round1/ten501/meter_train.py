"""Image-classification style loop with AverageMeter bookkeeping."""
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class AverageMeter:
    """Computes and stores the average and current value."""

    def __init__(self, name, fmt=":f"):
        self.name = name
        self.fmt = fmt
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
        return f"{self.name} {float(self.val):.3f} ({float(self.avg):.3f})"


def accuracy(output, target):
    pred = output.argmax(dim=1)
    return (pred == target).float().mean() * 100.0


def train(loader, model, criterion, optimizer, epoch):
    batch_time = AverageMeter("Time", ":6.3f")
    losses = AverageMeter("Loss", ":.4e")
    top1 = AverageMeter("Acc@1", ":6.2f")
    model.train()
    end = time.time()
    for i, (images, target) in enumerate(loader):
        output = model(images)
        loss = criterion(output, target)
        acc1 = accuracy(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.update(loss, images.size(0))  # expect: TEN501
        top1.update(acc1, images.size(0))  # ok
        batch_time.update(time.time() - end)  # ok
        end = time.time()
        if i % 2 == 0:
            print(f"[{epoch}][{i}] {losses} {top1}")
    return losses.avg


def main():
    x = torch.randn(96, 3, 8, 8)
    y = torch.randint(0, 5, (96,))
    loader = DataLoader(TensorDataset(x, y), batch_size=24, shuffle=True)
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 5))
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        train(loader, model, criterion, optimizer, epoch)


if __name__ == "__main__":
    main()
