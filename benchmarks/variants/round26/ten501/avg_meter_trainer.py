"""ImageNet-example style training loop with AverageMeter objects."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


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
        return f"{self.name} {float(self.val):.4f} ({float(self.avg):.4f})"


def accuracy(output, target):
    pred = output.argmax(dim=1)
    return (pred == target).float().mean() * 100.0


def train(loader, model, optimizer, epoch):
    losses = AverageMeter("Loss", ":.4e")
    top1 = AverageMeter("Acc@1", ":6.2f")
    losses_scalar = AverageMeter("LossF", ":.4e")
    model.train()
    for i, (images, target) in enumerate(loader):
        output = model(images)
        loss = F.cross_entropy(output, target)
        acc1 = accuracy(output, target)
        losses.update(loss, images.size(0))  # expect: TEN501
        top1.update(acc1, images.size(0))  # ok
        losses_scalar.update(loss.item(), images.size(0))  # ok
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: {losses} {top1} {losses_scalar}")


def main():
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    xs = torch.randn(96, 10)
    ys = (xs[:, :4].argmax(1))
    loader = [(xs[i:i + 16], ys[i:i + 16]) for i in range(0, 96, 16)]
    for epoch in range(2):
        train(loader, model, optimizer, epoch)


if __name__ == "__main__":
    main()
