"""Meters used by the engine."""
import torch


class AverageMeter:
    def __init__(self):
        self.reset()

    def reset(self):
        self.sum, self.count, self.avg = 0.0, 0, 0.0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


class SafeMeter(AverageMeter):
    """Same API, but never keeps tensors."""

    def update(self, val, n=1):
        if isinstance(val, torch.Tensor):
            val = val.detach().item()
        super().update(val, n)
