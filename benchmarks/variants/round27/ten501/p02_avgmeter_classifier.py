"""ImageNet-example style loop with AverageMeter objects (update(val, n))."""
import time
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


def accuracy(output, target, topk=(1,)):
    with torch.no_grad():
        maxk = max(topk)
        _, pred = output.topk(maxk, 1, True, True)
        correct = pred.t().eq(target.view(1, -1).expand_as(pred.t()))
        return [correct[:k].reshape(-1).float().sum(0) * (100.0 / target.size(0)) for k in topk]


def train(loader, model, criterion, optimizer):
    batch_time = AverageMeter("Time")
    losses = AverageMeter("Loss")
    clean_losses = AverageMeter("LossItem")
    top1 = AverageMeter("Acc@1")
    confidence = AverageMeter("Conf")
    model.train()
    end = time.time()
    for images, target in loader:
        output = model(images)
        loss = criterion(output, target)
        acc1, = accuracy(output, target)
        conf = F.softmax(output, dim=1).max(dim=1).values.mean()
        losses.update(loss, images.size(0))  # expect: TEN501
        clean_losses.update(loss.item(), images.size(0))  # ok
        top1.update(acc1, images.size(0))  # ok
        confidence.update(conf, images.size(0))  # expect: TEN501
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        batch_time.update(time.time() - end)  # ok
        end = time.time()
    return losses, clean_losses, top1, confidence


model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 4 * 4, 32), nn.ReLU(), nn.Linear(32, 5))
data = [(torch.randn(8, 3, 4, 4), torch.randint(0, 5, (8,))) for _ in range(10)]
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
l, lc, t1, cf = train(data, model, nn.CrossEntropyLoss(), opt)
print("loss avg %.4f item avg %.4f acc %.2f conf %.4f" % (l.avg.item(), lc.avg, t1.avg.item(), cf.avg.item()))
