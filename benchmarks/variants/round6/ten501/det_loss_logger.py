"""mmdet-style runner: the model returns a dict of losses, parse_losses reduces it
and a LogBuffer keeps scalar history for the text logger."""
from collections import OrderedDict, defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyDetector(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(inplace=True), nn.AdaptiveAvgPool2d(1)
        )
        self.cls_head = nn.Linear(8, num_classes)
        self.reg_head = nn.Linear(8, 4)

    def forward_train(self, img, gt_labels, gt_bboxes):
        feat = self.backbone(img).flatten(1)
        cls_score = self.cls_head(feat)
        bbox_pred = self.reg_head(feat)
        losses = dict()
        losses["loss_cls"] = F.cross_entropy(cls_score, gt_labels)
        losses["loss_bbox"] = [F.smooth_l1_loss(bbox_pred[:, :2], gt_bboxes[:, :2]),
                               F.smooth_l1_loss(bbox_pred[:, 2:], gt_bboxes[:, 2:])]
        losses["acc"] = (cls_score.argmax(1) == gt_labels).float().mean() * 100
        return losses


def parse_losses(losses):
    log_vars = OrderedDict()
    for loss_name, loss_value in losses.items():
        if isinstance(loss_value, torch.Tensor):
            log_vars[loss_name] = loss_value.mean()
        elif isinstance(loss_value, list):
            log_vars[loss_name] = sum(_loss.mean() for _loss in loss_value)
        else:
            raise TypeError(f"{loss_name} is not a tensor or list of tensors")

    loss = sum(_value for _key, _value in log_vars.items() if "loss" in _key)
    log_vars["loss"] = loss
    for loss_name, loss_value in log_vars.items():
        log_vars[loss_name] = loss_value.item()
    return loss, log_vars


class LogBuffer:
    def __init__(self):
        self.val_history = defaultdict(list)
        self.n_history = defaultdict(list)
        self.output = OrderedDict()

    def update(self, vars, count=1):
        for key, var in vars.items():
            self.val_history[key].append(var)
            self.n_history[key].append(count)

    def average(self, n=0):
        for key in self.val_history:
            values = self.val_history[key][-n:]
            nums = self.n_history[key][-n:]
            avg = sum(v * c for v, c in zip(values, nums)) / sum(nums)
            self.output[key] = avg

    def clear_output(self):
        self.output.clear()


def train_step(model, data, optimizer):
    losses = model.forward_train(**data)
    loss, log_vars = parse_losses(losses)
    outputs = dict(loss=loss, log_vars=log_vars, num_samples=len(data["img"]))
    return outputs, losses


def run_epoch(model, data_loader, optimizer, log_buffer, interval=2):
    model.train()
    raw_history = []
    for i, data in enumerate(data_loader):
        outputs, raw_losses = train_step(model, data, optimizer)
        optimizer.zero_grad()
        outputs["loss"].backward()
        optimizer.step()
        log_buffer.update(outputs["log_vars"], outputs["num_samples"])  # ok
        raw_history.append(raw_losses)  # expect: TEN501
        if (i + 1) % interval == 0:
            log_buffer.average(interval)
            msg = ", ".join(f"{k}: {v:.4f}" for k, v in log_buffer.output.items())
            print(f"Epoch iter [{i + 1}/{len(data_loader)}] {msg}")
            log_buffer.clear_output()
    return raw_history


def fake_loader(n_batches=6, bs=4):
    g = torch.Generator().manual_seed(0)
    return [
        dict(img=torch.randn(bs, 3, 16, 16, generator=g),
             gt_labels=torch.randint(0, 4, (bs,), generator=g),
             gt_bboxes=torch.rand(bs, 4, generator=g))
        for _ in range(n_batches)
    ]


def main():
    model = TinyDetector()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    log_buffer = LogBuffer()
    loader = fake_loader()
    for epoch in range(2):
        hist = run_epoch(model, loader, optimizer, log_buffer)
        print(f"epoch {epoch} collected {len(hist)} raw loss dicts")


if __name__ == "__main__":
    main()
