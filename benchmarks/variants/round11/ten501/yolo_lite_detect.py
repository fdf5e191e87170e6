"""Anchor-free single-scale detector with a multi-part loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Head(nn.Module):
    def __init__(self, n_cls=20):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 32, 3, 2, 1), nn.SiLU(),
            nn.Conv2d(32, 64, 3, 2, 1), nn.SiLU(),
            nn.Conv2d(64, 128, 3, 2, 1), nn.SiLU(),
        )
        self.pred = nn.Conv2d(128, 5 + n_cls, 1)

    def forward(self, x):
        return self.pred(self.backbone(x)).permute(0, 2, 3, 1)


def criterion(pred, target):
    obj_t = target[..., 0]
    obj = F.binary_cross_entropy_with_logits(pred[..., 0], obj_t)
    pos = obj_t > 0.5
    if pos.any():
        box = F.l1_loss(pred[..., 1:5][pos], target[..., 1:5][pos])
        cls = F.cross_entropy(pred[..., 5:][pos], target[..., 5][pos].long())
    else:
        box = pred.sum() * 0.0
        cls = pred.sum() * 0.0
    total = obj + 5.0 * box + cls
    return total, obj, box, cls


def train(loader, epochs=12):
    model = Head()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937, nesterov=True)
    part_log = []
    total_log = []
    for epoch in range(epochs):
        for images, targets in loader:
            preds = model(images)
            loss, *parts = criterion(preds, targets)
            opt.zero_grad()
            loss.backward()
            opt.step()
            part_log.append(parts)  # expect: TEN501
            total_log.append(loss.item())  # ok
        named = dict(zip(["obj", "box", "cls"], map(float, part_log[-1])))
        print(epoch, sum(total_log[-len(loader):]) / len(loader), named)
    return model


def nms_postprocess(model, images, conf=0.25):
    model.eval()
    keep = []
    with torch.no_grad():
        out = model(images)
        for b in range(out.size(0)):
            scores = out[b, ..., 0].sigmoid().flatten()
            boxes = out[b, ..., 1:5].reshape(-1, 4)
            mask = scores > conf
            keep.append((boxes[mask], scores[mask]))  # ok
    return keep
