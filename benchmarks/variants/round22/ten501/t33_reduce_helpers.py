"""Distributed-style helpers (single process here) between the loss and the logs."""
from collections import defaultdict

import torch
from torch import nn

WORLD_SIZE = 1


def reduce_mean(t):
    rt = t.clone()
    # dist.all_reduce(rt) would go here
    return rt / WORLD_SIZE


def reduce_dict(d):
    names = sorted(d)
    values = torch.stack([d[k] for k in names]) / WORLD_SIZE
    return dict(zip(names, values))


def gather_probs(logits):
    return [logits.softmax(-1)]


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Linear(10, 16)
        self.box = nn.Linear(16, 4)
        self.cls = nn.Linear(16, 5)

    def forward(self, x, boxes, labels):
        h = torch.relu(self.backbone(x))
        logits = self.cls(h)
        losses = {"loss_box": nn.functional.smooth_l1_loss(self.box(h), boxes),
                  "loss_cls": nn.functional.cross_entropy(logits, labels)}
        return losses, logits


torch.manual_seed(0)
model = Detector()
opt = torch.optim.SGD(model.parameters(), lr=0.02)
meters, meters_ok = defaultdict(float), defaultdict(float)
probs, labels_all, hist, hist_ok = [], [], [], []

for it in range(6):
    x, boxes, labels = torch.randn(8, 10), torch.rand(8, 4), torch.randint(0, 5, (8,))
    loss_dict, logits = model(x, boxes, labels)
    loss = sum(loss_dict.values())
    opt.zero_grad()
    loss.backward()
    opt.step()

    meters["loss"] += reduce_mean(loss)  # expect: TEN501
    meters_ok["loss"] += reduce_mean(loss.detach())  # ok
    probs.extend(gather_probs(logits))  # expect: TEN501
    labels_all.extend(gather_probs(labels.float()))  # ok
    loss_dict_reduced = reduce_dict(loss_dict)
    hist.append(sum(loss_dict_reduced.values()))  # expect: TEN501
    with torch.no_grad():
        reduced = reduce_dict(loss_dict)
    hist_ok.append(sum(reduced.values()))  # ok

print(round(meters_ok["loss"].item(), 4), len(probs), len(hist), round(float(hist_ok[-1]), 4))
