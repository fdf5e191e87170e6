"""Toy 'detection' training entry point."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from engine import evaluate, train_one_epoch


class TinyDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.box = nn.Linear(8, 4)
        self.cls = nn.Linear(8, 3)

    def forward(self, images):
        h = self.backbone(images)
        return {"boxes": self.box(h), "scores": self.cls(h).softmax(-1)}


def criterion(outputs, targets):
    return {
        "loss_box": F.smooth_l1_loss(outputs["boxes"], targets["boxes"]),
        "loss_cls": F.nll_loss(outputs["scores"].clamp_min(1e-6).log(), targets["labels"]),
    }


def get_loader(n=4):
    return [
        (torch.randn(4, 3, 16, 16), {"boxes": torch.rand(4, 4), "labels": torch.randint(0, 3, (4,))})
        for _ in range(n)
    ]


def main(args):
    model = TinyDetector()
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=args.lr, momentum=0.9, weight_decay=1e-4)
    loader = get_loader()
    for epoch in range(args.epochs):
        train_one_epoch(model, criterion, optimizer, loader, epoch)
        evaluate(model, loader)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--epochs", type=int, default=2)
    main(parser.parse_args([]))
