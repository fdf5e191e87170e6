"""Segmentation + depth multi-task net with learned uncertainty weighting."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MultiTaskNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.seg_head = nn.Conv2d(8, n_classes, 1)
        self.depth_head = nn.Conv2d(8, 1, 1)
        self.log_vars = nn.Parameter(torch.zeros(2))

    def forward(self, img):
        h = self.enc(img)
        return self.seg_head(h), self.depth_head(h).squeeze(1)


def multitask_loss(outputs, batch, log_vars):
    seg_logits, depth_pred = outputs
    seg = F.cross_entropy(seg_logits, batch["seg"])
    depth = F.l1_loss(depth_pred, batch["depth"])
    precision = torch.exp(-log_vars)
    total = precision[0] * seg + log_vars[0] + precision[1] * depth + log_vars[1]
    return total, (seg, depth), precision


def make_batch(bs=8, size=12):
    img = torch.rand(bs, 1, size, size)
    seg = (img[:, 0] * 3).long().clamp(max=2)
    depth = img[:, 0].flip(-1) * 2.0
    return {"image": img, "seg": seg, "depth": depth}


def train_epoch(model, opt, n_steps, history):
    running = {}
    for step in range(n_steps):
        batch = make_batch()
        outputs = model(batch["image"])
        total, (seg_l, depth_l), precision = multitask_loss(outputs, batch, model.log_vars)
        opt.zero_grad()
        total.backward()
        opt.step()

        history["seg"].append(seg_l.item())  # ok
        history["depth"].append(depth_l)  # expect: TEN501
        history["task_weights"].append(precision)  # expect: TEN501
        history["task_weights_plot"].append(torch.exp(-model.log_vars.detach()))  # ok
        parts = {"seg": seg_l, "depth": depth_l}
        for name, value in parts.items():
            running[name] = running.get(name, 0.0) + value.detach()  # ok
    return {k: v.item() / n_steps for k, v in running.items()}


def main():
    model = MultiTaskNet()
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    history = defaultdict(list)
    for epoch in range(2):
        summary = train_epoch(model, opt, 6, history)
        print(epoch, summary, [round(w, 3) for w in history["task_weights_plot"][-1].tolist()])


if __name__ == "__main__":
    main()
