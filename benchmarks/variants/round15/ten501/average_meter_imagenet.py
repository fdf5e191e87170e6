"""ImageNet-example style loop with AverageMeter / ProgressMeter."""
import time

import torch
import torch.nn as nn


class AverageMeter:
    """Computes and stores the average and current value"""

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
        return [correct[:k].reshape(-1).float().sum(0, keepdim=True).mul_(100.0 / target.size(0)) for k in topk]


def train_one_epoch(loader, model, criterion, optimizer, epoch):
    batch_time = AverageMeter("Time", ":6.3f")
    data_time = AverageMeter("Data", ":6.3f")
    losses = AverageMeter("Loss", ":.4e")
    top1 = AverageMeter("Acc@1", ":6.2f")
    top2 = AverageMeter("Acc@2", ":6.2f")
    model.train()
    end = time.time()
    for i, (images, target) in enumerate(loader):
        data_time.update(time.time() - end)  # ok
        output = model(images)
        loss = criterion(output, target)
        acc1, acc2 = accuracy(output, target, topk=(1, 2))
        losses.update(loss, images.size(0))  # expect: TEN501
        top1.update(acc1[0], images.size(0))  # ok
        top2.update(acc2[0].item(), images.size(0))  # ok
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        batch_time.update(time.time() - end)  # ok
        end = time.time()
    print(f"epoch {epoch}: {losses} {top1} {top2}")
    return losses.avg


def validate(loader, model, criterion):
    losses = AverageMeter("Loss")
    top1 = AverageMeter("Acc@1")
    model.eval()
    with torch.no_grad():
        for images, target in loader:
            output = model(images)
            loss = criterion(output, target)
            losses.update(loss, images.size(0))  # ok
            top1.update(accuracy(output, target)[0][0], images.size(0))  # ok
    return top1.avg


if __name__ == "__main__":
    torch.manual_seed(0)
    data = [(torch.randn(8, 20), torch.randint(0, 5, (8,))) for _ in range(6)]
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
    crit = nn.CrossEntropyLoss()
    epoch_avgs = []
    for epoch in range(3):
        epoch_avgs.append(train_one_epoch(data, model, crit, opt, epoch))  # expect: TEN501
        print("val acc", float(validate(data[:2], model, crit)))
