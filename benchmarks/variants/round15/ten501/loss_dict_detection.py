"""Detection-style multi-term loss dict with smoothed logging."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyDetector(nn.Module):
    def __init__(self, n_cls=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.cls_head = nn.Conv2d(8, n_cls, 1)
        self.box_head = nn.Conv2d(8, 4, 1)
        self.obj_head = nn.Conv2d(8, 1, 1)

    def forward(self, images, targets):
        f = self.backbone(images)
        cls, box, obj = self.cls_head(f), self.box_head(f), self.obj_head(f)
        return {
            "loss_classifier": F.cross_entropy(cls, targets["labels"]),
            "loss_box_reg": F.smooth_l1_loss(box, targets["boxes"]),
            "loss_objectness": F.binary_cross_entropy_with_logits(obj.squeeze(1), targets["obj"]),
        }


WEIGHTS = {"loss_classifier": 1.0, "loss_box_reg": 2.0, "loss_objectness": 0.5}


def reduce_loss_dict(loss_dict):
    with torch.no_grad():
        return {k: v.clone() for k, v in loss_dict.items()}


def train(model, optimizer, data, epochs=2):
    meters = defaultdict(list)
    smoothed = defaultdict(float)
    epoch_stats = defaultdict(float)
    total_loss_per_epoch = []
    for epoch in range(epochs):
        total_loss = 0
        for images, targets in data:
            loss_dict = model(images, targets)
            losses = 0.0
            for name, term in loss_dict.items():
                losses = losses + WEIGHTS[name] * term  # ok
            optimizer.zero_grad()
            losses.backward()
            optimizer.step()
            for k, v in loss_dict.items():
                meters[k].append(v)  # expect: TEN501
            loss_dict_reduced = reduce_loss_dict(loss_dict)
            for k, v in loss_dict_reduced.items():
                smoothed[k] = 0.9 * smoothed[k] + 0.1 * v  # ok
                epoch_stats[k] += v.item()  # ok
            total_loss = total_loss + losses  # expect: TEN501
        total_loss_per_epoch.append(float(total_loss))  # ok
    return meters, smoothed, total_loss_per_epoch


if __name__ == "__main__":
    torch.manual_seed(0)
    data = []
    for _ in range(3):
        imgs = torch.randn(2, 3, 6, 6)
        data.append((imgs, {"labels": torch.randint(0, 3, (2, 6, 6)), "boxes": torch.randn(2, 4, 6, 6),
                            "obj": torch.randint(0, 2, (2, 6, 6)).float()}))
    model = TinyDetector()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    meters, smoothed, totals = train(model, opt, data)
    print({k: round(float(v), 3) for k, v in smoothed.items()}, totals)
