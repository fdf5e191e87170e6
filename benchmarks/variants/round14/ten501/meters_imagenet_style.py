"""ImageNet-example style training with AverageMeter / ProgressMeter bookkeeping."""
import time

import torch
import torch.nn as nn


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


def accuracy(output, target, topk=(1,)):
    with torch.no_grad():
        maxk = max(topk)
        _, pred = output.topk(maxk, 1, True, True)
        correct = pred.t().eq(target.view(1, -1).expand_as(pred.t()))
        return [correct[:k].reshape(-1).float().sum(0) * (100.0 / target.size(0)) for k in topk]


def train_one_epoch(loader, model, criterion, optimizer, weight_decay=1e-4):
    batch_time = AverageMeter("Time")
    losses = AverageMeter("Loss")
    reg_meter = AverageMeter("L2")
    top1 = AverageMeter("Acc@1")
    model.train()
    end = time.time()
    for images, target in loader:
        output = model(images)
        l2_penalty = sum(p.pow(2).sum() for p in model.parameters())
        loss = criterion(output, target) + weight_decay * l2_penalty
        acc1, = accuracy(output, target, topk=(1,))

        losses.update(loss, images.size(0))  # expect: TEN501
        reg_meter.update(l2_penalty)  # expect: TEN501
        top1.update(acc1, images.size(0))  # ok

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        batch_time.update(time.time() - end)  # ok
        end = time.time()
    print("train:", losses, top1, reg_meter)


def validate(loader, model, criterion):
    val_losses = AverageMeter("ValLoss")
    val_top1 = AverageMeter("ValAcc@1")
    model.eval()
    with torch.no_grad():
        for images, target in loader:
            output = model(images)
            loss = criterion(output, target)
            val_losses.update(loss, images.size(0))  # ok
            val_top1.update(accuracy(output, target)[0].item(), images.size(0))  # ok
    print("val:  ", val_losses, val_top1)
    return val_top1.avg


def main():
    torch.manual_seed(0)
    images = torch.randn(96, 3, 8, 8)
    labels = torch.randint(0, 5, (96,))
    loader = [(images[i:i + 16], labels[i:i + 16]) for i in range(0, 96, 16)]
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                          nn.Flatten(), nn.Linear(8, 5))
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    best = 0.0
    for epoch in range(2):
        train_one_epoch(loader, model, criterion, optimizer)
        best = max(best, validate(loader[:2], model, criterion))
    print("best acc", best)


if __name__ == "__main__":
    main()
