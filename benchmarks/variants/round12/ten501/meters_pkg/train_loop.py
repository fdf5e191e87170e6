import time

import torch

from .average import AverageMeter, ProgressMeter, ScalarMeter


def accuracy(output, target, topk=(1,)):
    """Computes the accuracy over the k top predictions."""
    with torch.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t()
        correct = pred.eq(target.view(1, -1).expand_as(pred))
        res = []
        for k in topk:
            correct_k = correct[:k].reshape(-1).float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / batch_size))
        return res


def train(train_loader, model, criterion, optimizer, epoch, device, print_freq=50):
    batch_time = AverageMeter("Time", ":6.3f")
    losses = AverageMeter("Loss", ":.4e")
    top1 = AverageMeter("Acc@1", ":6.2f")
    top5 = AverageMeter("Acc@5", ":6.2f")
    raw = ScalarMeter("loss_raw")
    progress = ProgressMeter(len(train_loader), [batch_time, losses, top1, top5],
                             prefix=f"Epoch: [{epoch}]")
    model.train()
    end = time.time()
    for i, (images, target) in enumerate(train_loader):
        images = images.to(device, non_blocking=True)
        target = target.to(device, non_blocking=True)
        output = model(images)
        loss = criterion(output, target)

        acc1, acc5 = accuracy(output, target, topk=(1, 5))
        losses.update(loss, images.size(0))  # expect: TEN501
        top1.update(acc1[0], images.size(0))  # ok
        top5.update(acc5[0].item(), images.size(0))  # ok
        raw.update(loss)  # ok

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        batch_time.update(time.time() - end)  # ok
        end = time.time()
        if i % print_freq == 0:
            progress.display(i + 1)
    return losses.avg


def validate(val_loader, model, criterion, device):
    losses = AverageMeter("Loss", ":.4e")
    top1 = AverageMeter("Acc@1", ":6.2f")
    model.eval()
    with torch.no_grad():
        for images, target in val_loader:
            images, target = images.to(device), target.to(device)
            output = model(images)
            loss = criterion(output, target)
            acc1, = accuracy(output, target, topk=(1,))
            losses.update(loss, images.size(0))  # ok
            top1.update(acc1[0], images.size(0))  # ok
    print(f" * Acc@1 {top1.avg:.3f} loss {losses.avg:.4f}")
    return top1.avg
