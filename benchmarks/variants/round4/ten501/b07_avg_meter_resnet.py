import time

import torch
import torch.nn as nn
import torchvision


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
        self.sum += val * n  # expect: TEN501
        self.count += n
        self.avg = self.sum / self.count

    def __str__(self):
        fmtstr = "{name} {val" + self.fmt + "} ({avg" + self.fmt + "})"
        return fmtstr.format(name=self.name, val=float(self.val), avg=float(self.avg))


def accuracy(output, target, topk=(1,)):
    with torch.no_grad():
        maxk = max(topk)
        _, pred = output.topk(maxk, 1, True, True)
        correct = pred.t().eq(target.view(1, -1).expand_as(pred.t()))
        return [correct[:k].reshape(-1).float().sum(0) * (100.0 / target.size(0)) for k in topk]


def train_one_epoch(loader, model, criterion, optimizer, epoch, print_freq=20):
    batch_time = AverageMeter("Time", ":6.3f")
    losses = AverageMeter("Loss", ":.4e")
    top1 = AverageMeter("Acc@1", ":6.2f")
    model.train()
    end = time.time()
    for i, (images, target) in enumerate(loader):
        output = model(images)
        loss = criterion(output, target)
        acc1, = accuracy(output, target, topk=(1,))

        losses.update(loss, images.size(0))
        top1.update(acc1.item(), images.size(0))

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        batch_time.update(time.time() - end)
        end = time.time()
        if i % print_freq == 0:
            print(f"Epoch [{epoch}][{i}] {batch_time} {losses} {top1}")


def main():
    model = torchvision.models.resnet18(weights=None, num_classes=10)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    loader = [(torch.randn(16, 3, 32, 32), torch.randint(0, 10, (16,))) for _ in range(40)]
    for epoch in range(2):
        train_one_epoch(loader, model, criterion, optimizer, epoch)


if __name__ == "__main__":
    main()
