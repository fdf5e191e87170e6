"""A tiny experiment logger with a **kwargs API, in the style of many research repos."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class MetricLogger:
    def __init__(self, delimiter="  "):
        self.meters = defaultdict(list)
        self.delimiter = delimiter

    def update(self, **kwargs):
        for k, v in kwargs.items():
            self.meters[k].append(v)

    def __str__(self):
        return self.delimiter.join(f"{k}: {float(v[-1]):.4f}" for k, v in self.meters.items())


class ScalarLogger(MetricLogger):
    def update(self, **kwargs):
        for k, v in kwargs.items():
            if isinstance(v, torch.Tensor):
                v = v.item()
            assert isinstance(v, (float, int))
            self.meters[k].append(v)


def train_one_epoch(model, optimizer, batches, metric_logger, scalar_logger, epoch):
    model.train()
    for step, (images, targets) in enumerate(batches):
        logits = model(images)
        loss_dict = {"loss_ce": F.cross_entropy(logits, targets), "loss_l2": 1e-3 * logits.pow(2).mean()}
        losses = sum(loss for loss in loss_dict.values())
        optimizer.zero_grad()
        losses.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
        lr = optimizer.param_groups[0]["lr"]
        metric_logger.update(loss=losses, lr=lr)  # expect: TEN501
        metric_logger.update(grad_norm=grad_norm.item(), epoch=epoch)  # ok
        metric_logger.update(**{k: v.item() for k, v in loss_dict.items()})  # ok
        scalar_logger.update(**loss_dict)  # ok
        scalar_logger.update(loss=losses, lr=lr)  # ok


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.Flatten(), nn.Linear(16, 24), nn.ReLU(), nn.Linear(24, 3))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    batches = [(torch.randn(6, 4, 4), torch.randint(0, 3, (6,))) for _ in range(4)]
    metric_logger, scalar_logger = MetricLogger(), ScalarLogger()
    for epoch in range(2):
        train_one_epoch(model, optimizer, batches, metric_logger, scalar_logger, epoch)
        print(metric_logger)
