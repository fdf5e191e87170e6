"""ImageNet-example style AverageMeter used from a training loop."""
import time

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class AverageMeter:
    """Computes and stores the average and current value."""

    def __init__(self, name, fmt=":.4f"):
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
        return ("{name} {avg" + self.fmt + "}").format(name=self.name, avg=float(self.avg))


def accuracy(output, target):
    pred = output.argmax(dim=1)
    return (pred == target).float().mean() * 100


model = nn.Sequential(nn.Flatten(), nn.Linear(16, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
crit = nn.CrossEntropyLoss()

losses = AverageMeter("Loss")
losses_detached = AverageMeter("LossD")
top1 = AverageMeter("Acc@1", ":.2f")
batch_time = AverageMeter("Time", ":.3f")

end = time.time()
for it in range(10):
    images = torch.randn(8, 4, 4)
    target = torch.randint(0, 10, (8,))
    output = model(images)
    loss = crit(output, target)
    acc1 = accuracy(output, target)

    losses.update(loss, images.size(0))  # expect: TEN501
    losses_detached.update(loss.detach(), images.size(0))  # ok
    top1.update(acc1.item(), images.size(0))  # ok

    opt.zero_grad()
    loss.backward()
    opt.step()
    batch_time.update(time.time() - end)  # ok
    end = time.time()

print(losses, losses_detached, top1, batch_time)
