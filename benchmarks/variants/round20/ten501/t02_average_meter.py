"""Classic AverageMeter used by an ImageNet-style train() function."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class AverageMeter:
    def __init__(self, name):
        self.name = name
        self.reset()

    def reset(self):
        self.val = 0
        self.sum = 0
        self.count = 0
        self.avg = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def __str__(self):
        return "%s %.4f" % (self.name, float(self.avg))


def accuracy(output, target):
    return (output.argmax(1) == target).float().mean()


def train(model, optimizer, batches):
    losses = AverageMeter("loss")
    scalar_losses = AverageMeter("loss_item")
    top1 = AverageMeter("acc")
    conf = AverageMeter("max_logit")
    margin = AverageMeter("margin")
    model.train()
    for x, y in batches:
        out = model(x)
        loss = F.cross_entropy(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        n = x.size(0)
        losses.update(loss, n)  # expect: TEN501
        scalar_losses.update(loss.item(), n)  # ok
        top1.update(accuracy(out, y), n)  # ok
        conf.update(out.max(dim=1).values.mean(), n)  # expect: TEN501
        with torch.no_grad():
            margin.update((out.max(1).values - out.min(1).values).mean(), n)  # ok
    return losses, scalar_losses, top1, conf, margin


model = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 4))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
data = [(torch.randn(8, 10), torch.randint(0, 4, (8,))) for _ in range(10)]
for epoch in range(2):
    meters = train(model, opt, data)
    print("epoch", epoch, " | ".join(str(m) for m in meters))
