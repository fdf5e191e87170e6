"""Accounting helpers shared by clients and the server."""
import torch
import torch.nn.functional as F


class RunningLoss:
    """Mean of every value seen since construction."""

    def __init__(self):
        self.total = 0.0
        self.count = 0

    def update(self, value):
        self.total = self.total + value
        self.count += 1

    def mean(self):
        return float(self.total) / max(self.count, 1)


@torch.no_grad()
def evaluate_global(model, loader, device):
    model.eval()
    total_loss, correct, n = 0.0, 0, 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        out = model(x)
        total_loss += F.cross_entropy(out, y, reduction="sum")  # ok
        correct += (out.argmax(1) == y).sum().item()
        n += y.numel()
    return float(total_loss) / n, correct / n
