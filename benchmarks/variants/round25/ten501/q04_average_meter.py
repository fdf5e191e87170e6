import torch
import torch.nn as nn

torch.manual_seed(0)


class AverageMeter:
    """Computes and stores the average and current value (imagenet example style)."""

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
        return f"{self.name} {float(self.val):.4f} ({float(self.avg):.4f})"


def accuracy(output, target):
    pred = output.argmax(dim=1)
    return (pred == target).float().mean() * 100.0


def train(loader, model, criterion, optimizer, losses, top1, losses_clean):
    model.train()
    for images, target in loader:
        output = model(images)
        loss = criterion(output, target)
        acc1 = accuracy(output, target)
        losses.update(loss, images.size(0))  # expect: TEN501
        losses_clean.update(loss.item(), images.size(0))  # ok
        top1.update(acc1, images.size(0))  # ok
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main():
    xs = torch.randn(80, 10)
    ys = (xs[:, 0] > 0).long()
    loader = list(zip(xs.split(16), ys.split(16)))
    model = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 2))
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = AverageMeter("Loss")
    losses_clean = AverageMeter("Loss(clean)")
    top1 = AverageMeter("Acc@1")
    for epoch in range(2):
        train(loader, model, criterion, optimizer, losses, top1, losses_clean)
        print(epoch, losses, losses_clean, top1)


main()
