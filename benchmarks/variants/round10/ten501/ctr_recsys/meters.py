"""Small metric containers used by the CTR trainer."""
import numpy as np
import torch
from sklearn.metrics import log_loss, roc_auc_score


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
        fmtstr = "{name} {val" + self.fmt + "} ({avg" + self.fmt + "})"
        return fmtstr.format(name=self.name, val=float(self.val), avg=float(self.avg))


class AUCMeter:
    def __init__(self):
        self.reset()

    def reset(self):
        self.scores = []
        self.targets = []

    def add(self, scores, targets):
        self.scores.append(scores.reshape(-1))
        self.targets.append(targets.reshape(-1))

    def value(self):
        if not self.scores:
            return float("nan"), float("nan")
        s = torch.cat(self.scores).numpy().astype(np.float64)
        t = torch.cat(self.targets).numpy()
        return roc_auc_score(t, s), log_loss(t, np.clip(s, 1e-7, 1 - 1e-7))
