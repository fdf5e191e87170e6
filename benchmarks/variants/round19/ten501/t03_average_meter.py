"""ImageNet-example style AverageMeter / ProgressMeter."""
import torch
import torch.nn as nn
import torch.nn.functional as F


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


def accuracy(output, target, topk=(1,)):
    with torch.no_grad():
        maxk = max(topk)
        _, pred = output.topk(maxk, 1, True, True)
        correct = pred.t().eq(target.view(1, -1).expand_as(pred.t()))
        return [correct[:k].reshape(-1).float().sum(0) * (100.0 / target.size(0)) for k in topk]


def train(loader, model, opt, epoch, meters):
    losses, losses_ok, top1, raw_acc = meters
    for images, target in loader:
        output = model(images)
        loss = F.cross_entropy(output, target)
        acc1, = accuracy(output, target)
        losses.update(loss, images.size(0))  # expect: TEN501
        losses_ok.update(loss.item(), images.size(0))  # ok
        top1.update(acc1[0] if acc1.dim() else acc1, images.size(0))  # ok
        raw_acc.update((output.argmax(1) == target).float().mean())  # ok
        opt.zero_grad()
        loss.backward()
        opt.step()


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    loader = [(torch.randn(10, 6), torch.randint(0, 3, (10,))) for _ in range(5)]
    meters = (AverageMeter("Loss"), AverageMeter("Loss"), AverageMeter("Acc@1"), AverageMeter("acc"))
    for epoch in range(2):
        train(loader, model, opt, epoch, meters)
    print(" ".join(f"{m.name} {float(m.avg):.4f}" for m in meters))


if __name__ == "__main__":
    main()
