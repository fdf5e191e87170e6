from enum import Enum

import torch


class Summary(Enum):
    NONE = 0
    AVERAGE = 1
    SUM = 2


class AverageMeter:
    def __init__(self, name, fmt=":f", summary_type=Summary.AVERAGE):
        self.name = name
        self.fmt = fmt
        self.summary_type = summary_type
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
        spec = self.fmt.lstrip(":")
        return f"{self.name} {format(float(self.val), spec)} ({format(float(self.avg), spec)})"

    def summary(self):
        if self.summary_type is Summary.SUM:
            return f"{self.name} {float(self.sum):.3f}"
        return f"{self.name} {float(self.avg):.3f}"


class ProgressMeter:
    def __init__(self, num_batches, meters, prefix=""):
        self.num_batches = num_batches
        self.meters = meters
        self.prefix = prefix

    def display(self, batch):
        width = len(str(self.num_batches))
        head = f"{self.prefix}[{batch:>{width}}/{self.num_batches}]"
        print("  ".join([head] + [str(m) for m in self.meters]))

    def display_summary(self):
        print(" * " + " ".join(m.summary() for m in self.meters))


def accuracy(output, target, topk=(1,)):
    """Return a list with the top-k accuracy (percent, shape (1,)) for every k in topk."""
    with torch.no_grad():
        ranked = output.topk(max(topk), dim=1).indices
        hits = ranked == target.unsqueeze(1)
        scale = 100.0 / target.size(0)
        return [hits[:, :k].any(dim=1).float().sum().view(1) * scale for k in topk]
