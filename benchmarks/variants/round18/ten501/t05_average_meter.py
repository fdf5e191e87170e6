"""ImageNet-example style AverageMeter / ProgressMeter bookkeeping."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


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


class ProgressMeter:
    def __init__(self, num_batches, meters, prefix=""):
        self.num_batches = num_batches
        self.meters = meters
        self.prefix = prefix

    def display(self, batch):
        entries = [f"{self.prefix}[{batch}/{self.num_batches}]"] + [str(m) for m in self.meters]
        return "  ".join(entries)


model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = [(torch.randn(16, 10), torch.randint(0, 4, (16,))) for _ in range(3)]

batch_time = AverageMeter("Time", ":6.3f")
losses = AverageMeter("Loss", ":.4e")
penalties = AverageMeter("Penalty", ":.4e")
plain_losses = AverageMeter("LossValue", ":.4e")
top1 = AverageMeter("Acc@1", ":6.2f")
progress = ProgressMeter(len(loader), [batch_time, plain_losses, top1], prefix="Epoch: ")

lines = []
for epoch in range(2):
    for meter in (batch_time, losses, penalties, plain_losses, top1):
        meter.reset()
    end = time.perf_counter()
    for i, (images, target) in enumerate(loader):
        output = model(images)
        penalty = 1e-3 * output.pow(2).mean()
        loss = F.cross_entropy(output, target) + penalty
        acc1 = (output.argmax(dim=1) == target).float().mean() * 100

        losses.update(loss, images.size(0))  # expect: TEN501
        penalties.update(penalty, n=images.size(0))  # expect: TEN501
        plain_losses.update(loss.item(), images.size(0))  # ok
        top1.update(acc1.item(), images.size(0))  # ok

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        batch_time.update(time.perf_counter() - end)  # ok
        end = time.perf_counter()
        lines.append(progress.display(i))  # ok

print(lines[-1].split("  ")[0], "loss avg", round(plain_losses.avg, 4))
