"""torchvision-references style MetricLogger/SmoothedValue next to a home-grown logger."""
from collections import defaultdict, deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SmoothedValue:
    """Track a series of values and provide access to smoothed values over a
    window or the global series average."""

    def __init__(self, window_size=20, fmt="{median:.4f} ({global_avg:.4f})"):
        self.deque = deque(maxlen=window_size)
        self.total = 0.0
        self.count = 0
        self.fmt = fmt

    def update(self, value, n=1):
        self.deque.append(value)
        self.count += n
        self.total += value * n

    @property
    def median(self):
        return torch.tensor(list(self.deque)).median().item()

    @property
    def global_avg(self):
        return self.total / self.count

    def __str__(self):
        return self.fmt.format(median=self.median, global_avg=self.global_avg)


class MetricLogger:
    def __init__(self, delimiter="  "):
        self.meters = defaultdict(SmoothedValue)
        self.delimiter = delimiter

    def update(self, **kwargs):
        for k, v in kwargs.items():
            if isinstance(v, torch.Tensor):
                v = v.item()
            assert isinstance(v, (float, int))
            self.meters[k].update(v)  # ok

    def __str__(self):
        return self.delimiter.join(f"{name}: {meter}" for name, meter in self.meters.items())


class RunLogger:
    """Quick logger written for a paper repo: keeps every value for plotting."""

    def __init__(self):
        self.history = defaultdict(list)

    def update(self, **kwargs):
        for k, v in kwargs.items():
            self.history[k].append(v)

    def mean(self, k):
        return sum(float(v) for v in self.history[k]) / len(self.history[k])


def reduce_dict(input_dict, average=True):
    """Reduce the values in the dictionary (single process: stack and unstack)."""
    with torch.no_grad():
        names = sorted(input_dict.keys())
        values = torch.stack([input_dict[k] for k in names])
        if average:
            values = values / 1  # world_size
        return {k: v for k, v in zip(names, values)}


class TinyDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(16, 32), nn.ReLU())
        self.cls_head = nn.Linear(32, 3)
        self.box_head = nn.Linear(32, 4)

    def forward(self, images, targets):
        feats = self.backbone(images)
        loss_classifier = F.cross_entropy(self.cls_head(feats), targets["labels"])
        loss_box_reg = F.smooth_l1_loss(self.box_head(feats), targets["boxes"])
        return {"loss_classifier": loss_classifier, "loss_box_reg": loss_box_reg}


def train_one_epoch(model, optimizer, data, epoch, metric_logger, run_logger):
    model.train()
    for step, (images, targets) in enumerate(data):
        loss_dict = model(images, targets)
        losses = sum(loss for loss in loss_dict.values())

        loss_dict_reduced = reduce_dict(loss_dict)
        losses_reduced = sum(loss for loss in loss_dict_reduced.values())
        loss_value = losses_reduced.item()

        optimizer.zero_grad()
        losses.backward()
        optimizer.step()

        metric_logger.update(loss=losses_reduced, **loss_dict_reduced)  # ok
        metric_logger.update(lr=optimizer.param_groups[0]["lr"])  # ok
        run_logger.update(loss=losses, **loss_dict)  # expect: TEN501
        run_logger.update(loss_value=loss_value)  # ok
    print(f"Epoch: [{epoch}] {metric_logger}")


def main():
    model = TinyDetector()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    data = []
    for _ in range(10):
        images = torch.randn(8, 16)
        targets = {"labels": torch.randint(0, 3, (8,)), "boxes": torch.rand(8, 4)}
        data.append((images, targets))
    metric_logger = MetricLogger()
    run_logger = RunLogger()
    for epoch in range(2):
        train_one_epoch(model, optimizer, data, epoch, metric_logger, run_logger)
    print("paper-logger mean loss:", round(run_logger.mean("loss"), 4),
          "box:", round(run_logger.mean("loss_box_reg"), 4))


if __name__ == "__main__":
    main()
