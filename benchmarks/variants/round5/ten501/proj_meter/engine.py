"""Train / eval loops."""
import torch

from .meters import AverageMeter, MetricTracker


def accuracy(output, target):
    with torch.no_grad():
        return (output.argmax(dim=1) == target).float().mean() * 100.0


def train_one_epoch(model, loader, criterion, optimizer, epoch, print_freq=10):
    loss_meter = AverageMeter("Loss")
    acc_meter = AverageMeter("Acc@1", ":.2f")
    tracker = MetricTracker("lr")
    model.train()
    for i, (images, target) in enumerate(loader):
        output = model(images)
        loss = criterion(output, target)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        acc1 = accuracy(output, target)
        loss_meter.update(loss, images.size(0))  # expect: TEN501
        acc_meter.update(acc1.item(), images.size(0))  # ok
        tracker.update("lr", optimizer.param_groups[0]["lr"])
        if i % print_freq == 0:
            print(f"Epoch [{epoch}][{i}/{len(loader)}] {loss_meter} {acc_meter}")
    return float(loss_meter.avg), acc_meter.avg, tracker.result()


@torch.no_grad()
def evaluate(model, loader, criterion):
    model.eval()
    meter = AverageMeter("ValLoss")
    top1 = AverageMeter("ValAcc@1", ":.2f")
    for images, target in loader:
        output = model(images)
        meter.update(criterion(output, target), images.size(0))  # ok
        top1.update(accuracy(output, target), images.size(0))  # ok
    return float(meter.avg), float(top1.avg)
