"""MNIST-style MLP classifier with the classic AverageMeter from the ImageNet example."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


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


def accuracy(output, target):
    pred = output.argmax(dim=1)
    return (pred == target).float().mean() * 100.0


def make_loader(n_batches, bs=16):
    for _ in range(n_batches):
        x = torch.randn(bs, 20)
        y = (x[:, 0] > 0).long()
        yield x, y


def train(model, optimizer, epoch):
    losses = AverageMeter("Loss", ":.4e")
    top1 = AverageMeter("Acc@1", ":6.2f")
    model.train()
    correct = 0
    for i, (images, target) in enumerate(make_loader(5)):
        output = model(images)
        loss = F.cross_entropy(output, target)
        acc1 = accuracy(output, target)
        losses.update(loss, images.size(0))  # expect: TEN501
        top1.update(acc1.item(), images.size(0))  # ok
        correct += (output.argmax(1) == target).sum()  # ok
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {float(losses.avg):.4f} acc {top1.avg:.2f} correct {int(correct)}")


def validate(model):
    losses = AverageMeter("Loss", ":.4e")
    model.eval()
    with torch.no_grad():
        for images, target in make_loader(4):
            output = model(images)
            loss = F.cross_entropy(output, target)
            losses.update(loss, images.size(0))  # ok
    return losses.avg


def main():
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for epoch in range(2):
        train(model, optimizer, epoch)
        print("val", float(validate(model)))


if __name__ == "__main__":
    main()
